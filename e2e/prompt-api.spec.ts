// model: 'chrome-builtin' in headless Chromium. This Chromium has no built-in
// model (its `LanguageModel.availability()` says 'unavailable'), so: the real
// browser's refusal, typed; then the strict Prompt API stand-in
// (src/test-support/prompt-api-stand-in.ts, from webmachinelearning/prompt-api
// at 2e27365ed877c3381126fcd0e10d5e0b8114c199) put in the page's
// `LanguageModel` before the agent starts, scripted, and backed by real
// llama.cpp (wllama called directly on the tiny GGUF, replies under llama.cpp's
// own JSON-schema grammar).
import { expect, test } from './fixtures.js';
import type { Page } from '@playwright/test';

async function openStandInPage(page: Page) {
  await page.goto('/prompt-api.html');
  await expect(page.locator('#status')).toHaveText('ready');
}

test("the real Chromium, no built-in model: 'chrome-builtin' fails typed, before anything loads", async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, isEngineUnavailableError } = window.tabagent;
    const api = (globalThis as { LanguageModel?: { availability(): Promise<string> } }).LanguageModel;
    const availability = api ? await api.availability() : 'absent';
    const error = await createAgent({ model: 'chrome-builtin', storage: false }).catch((e) => e);
    return { availability, typed: isEngineUnavailableError(error), engine: error.engine, reason: error.reason };
  });
  // Chromium here either lacks LanguageModel or says 'unavailable': both are no built-in model.
  expect(['unavailable', 'absent']).toContain(result.availability);
  expect(result).toMatchObject({ typed: true, engine: 'prompt-api' });
});

test('a chat with managed and raw tools, an approval and a reload, on the stand-in; abort keeps what was shown', async ({ page }) => {
  await openStandInPage(page);
  const calls = (name: string, args: object) => JSON.stringify({ calls: [{ name, arguments: args }] });
  const replies = [calls('ask_user', { q: 'Name?' }), calls('delete_file', { path: 'a.txt' }), calls('add', { a: 2, b: 3 }), JSON.stringify({ answer: 'Done, Ada: 5.' })];
  const first = await page.evaluate(async (replies) => {
    const { createAgent, tool, rawTool, z } = window.tabagent;
    const { promptApi } = window;
    const standIn = promptApi.install({ model: promptApi.scripted(replies) });
    const agent = await createAgent({ model: 'chrome-builtin', storage: { dbName: 'prompt-api-e2e' } });
    const info = await agent.ready;
    const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
    const remove = tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => `deleted ${path}` });
    const ask = rawTool({ name: 'ask_user', description: 'Ask the user', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
    const chat = await agent.newChat({ tools: [add, remove, ask] });
    const asked = await chat.send('Clean up and add 2 and 3');
    const approval = await chat.sendToolResult(asked.toolCalls[0]!.id, 'Ada');
    // The answer streams as written, though it sits inside the reply JSON.
    const shown: string[] = [];
    chat.on('text', (e) => shown.push(e.delta));
    const done = await chat.approve(approval.approvals![0]!.id);
    const sent = standIn.inputs.map((i: { call: string; messages: Array<{ role: string }> }) => ({ call: i.call, roles: i.messages.map((m) => m.role) }));
    agent.close();
    return { info, chatId: chat.id, asked: asked.toolCalls.map((c) => c.name), approval: approval.approvals!.map((c) => c.name), text: done.text, shown, sent };
  }, replies);
  expect(first.info).toMatchObject({ engine: 'prompt-api', host: 'page', modelId: 'chrome-builtin' });
  expect(first.asked).toEqual(['ask_user']);
  expect(first.approval).toEqual(['delete_file']);
  expect(first.text).toBe('Done, Ada: 5.');
  expect(first.shown.length).toBeGreaterThan(1);
  expect(first.shown.join('')).toBe('Done, Ada: 5.');
  // One session for the whole run: after the system prompt, each hop sent one new user turn (the message, then results).
  expect(first.sent).toEqual([
    { call: 'create', roles: ['system'] },
    { call: 'prompt', roles: ['user'] },
    { call: 'prompt', roles: ['user'] },
    { call: 'prompt', roles: ['user'] },
    { call: 'prompt', roles: ['user'] },
  ]);

  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready');
  const second = await page.evaluate(async (chatId) => {
    const { createAgent, tool, rawTool, z } = window.tabagent;
    const { promptApi } = window;
    const standIn = promptApi.install({ model: promptApi.scripted([JSON.stringify({ answer: 'Still here, and this answer is long enough to stop halfway.' })], 3) });
    const agent = await createAgent({ model: 'chrome-builtin', storage: { dbName: 'prompt-api-e2e' } });
    await agent.ready;
    const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
    const remove = tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => `deleted ${path}` });
    const ask = rawTool({ name: 'ask_user', description: 'Ask the user', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
    const chat = await agent.openChat(chatId, { tools: [add, remove, ask] });
    const stop = new AbortController();
    let seen = '';
    chat.on('text', (e) => {
      seen += e.delta;
      if (seen.length > 10) stop.abort();
    });
    const error = await chat.send('Still there?', { signal: stop.signal }).catch((e) => e);
    const partial = chat.messages.at(-1) as { role: string; text?: string };
    const rebuilt = standIn.inputs[0]!;
    const kept = chat.messages.length;
    agent.close();
    return { aborted: error?.name, rebuilt: { call: rebuilt.call, roles: rebuilt.messages.map((m: { role: string }) => m.role) }, kept, seen, partial };
  }, first.chatId);
  expect(second.aborted).toBe('AbortError');
  // What was shown is kept, and no more.
  expect(second.partial).toMatchObject({ role: 'assistant', text: second.seen });
  expect('Still here, and this answer is long enough to stop halfway.'.startsWith(second.seen)).toBe(true);
  // After the reload the session is rebuilt from the stored chat, replies included.
  expect(second.rebuilt.call).toBe('create');
  expect(second.rebuilt.roles).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
});

test('real llama.cpp behind the stand-in: every hop is a well-formed call its grammar allowed, run by the tool loop', async ({ page }) => {
  test.setTimeout(90_000);
  await openStandInPage(page);
  const result = await page.evaluate(async (url) => {
    const { createAgent, tool, z, isToolHopsError } = window.tabagent;
    const { promptApi } = window;
    promptApi.install({ model: await promptApi.llamaCpp(url, 256) });
    const agent = await createAgent({ model: 'chrome-builtin', storage: false });
    await agent.ready;
    const seen: unknown[] = [];
    const weather = tool({ name: 'get_weather', description: 'Weather for a city', input: z.object({ city: z.enum(['Paris', 'Tokyo']), metric: z.boolean() }), run: (args) => (seen.push(args), { temp: 21 }) });
    const chat = await agent.newChat({ tools: [weather], maxToolHops: 2 });
    // Every hop must call it: the schema admits only that call, so each reply is finite whatever the weights.
    const error = await chat.send('Weather in Paris?', { prepareStep: () => ({ toolChoice: { name: 'get_weather' } }) }).catch((e) => e);
    if (!isToolHopsError(error)) return { seen, hopsError: false, hops: 0, object: { city: '' }, error: String(error) };
    const { object } = await agent.generateObject({ schema: z.object({ city: z.enum(['Paris', 'Tokyo']) }), prompt: 'Which city?' });
    agent.close();
    return { seen, hopsError: isToolHopsError(error), hops: error?.hops, object, error: String(error) };
  }, '/models/tiny-qwen3.gguf');
  // Random weights: the content is whatever the grammar let through; the structure is what is proven.
  expect(result.hopsError, result.error).toBe(true);
  expect(result.seen.length).toBeGreaterThanOrEqual(2);
  for (const args of result.seen) expect(['Paris', 'Tokyo']).toContain((args as { city: string }).city);
  expect(['Paris', 'Tokyo']).toContain(result.object.city);
});
