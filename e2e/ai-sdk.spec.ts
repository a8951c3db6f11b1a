// tabagent/ai-sdk proved with the AI SDK's own code: generateText,
// streamText (stopWhen), generateObject / Output.object, and useChat (from
// @ai-sdk/react, in a React page Vite built), in headless Chromium through
// the real worker: on the strict fake model, and on the real engine (wllama
// running the tiny GGUF of scripts/tiny-gguf.mjs, whose greedy decoding
// picks the longest token the grammar allows, so every call is exactly what
// the grammar let through).
import { expect, test, type Page } from '@playwright/test';

const TINY = { gguf: '/models/tiny-qwen3.gguf', contextSize: 1024 };

async function open(page: Page, query = '') {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`/ai-sdk.html${query}`);
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 20_000 });
  return errors;
}

test.describe('on the fake model, through the real worker', () => {
  test('generateText runs a multi-step tool loop; step 2 reads only the tool result (the KV cache held)', async ({ page }) => {
    const errors = await open(page);
    const result = await page.evaluate(async () => {
      const { createTabAgent, fakeModel, toolCallText, generateText, stepCountIs, aiTool, z } = window.aiSdk;
      const fake = fakeModel(['Let me look. ' + toolCallText('get_weather', { city: 'Paris' }), toolCallText('get_weather', { city: 'Tokyo' }), 'Paris and Tokyo: sunny.']);
      const tabagent = createTabAgent();
      const seen: string[] = [];
      const get_weather = aiTool({ description: 'Weather', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => (seen.push(city), { city, forecast: 'sunny' }) });
      const out = await generateText({ model: tabagent(fake), prompt: 'Weather in Paris and Tokyo?', tools: { get_weather }, stopWhen: stepCountIs(5) });
      tabagent.close();
      return { seen, text: out.text, finish: out.steps.map((s) => s.finishReason), reused: fake.requests.map((r) => r.reusedCache), last: fake.requests.map((r) => r.last) };
    });
    expect(result.seen).toEqual(['Paris', 'Tokyo']);
    expect(result.text).toBe('Paris and Tokyo: sunny.');
    expect(result.finish).toEqual(['tool-calls', 'tool-calls', 'stop']);
    expect(result.reused).toEqual([false, true, true]);
    expect(result.last[2]).toContain('{"city":"Tokyo","forecast":"sunny"}');
    expect(errors).toEqual([]);
  });

  test('streamText: a named tool choice held by the grammar, then an abort mid-stream; the next call works', async ({ page }) => {
    const errors = await open(page);
    const result = await page.evaluate(async () => {
      const { createTabAgent, fakeModel, toolCallText, streamText, generateText, aiTool, z } = window.aiSdk;
      const fake = fakeModel([toolCallText('get_weather', { city: 'Oslo' }), { text: 'one two three four five six seven eight nine ten', tokenDelayMs: 30 }, 'Again.']);
      const tabagent = createTabAgent();
      const model = tabagent(fake);
      const tools = { get_weather: aiTool({ description: 'Weather', inputSchema: z.object({ city: z.string() }) }) };
      const named = streamText({ model, prompt: 'Weather?', tools, toolChoice: { type: 'tool', toolName: 'get_weather' } });
      const types: string[] = [];
      for await (const part of named.fullStream) types.push(part.type);
      const stop = new AbortController();
      const counting = streamText({ model, prompt: 'Count', abortSignal: stop.signal });
      let shown = '';
      let aborted = false;
      for await (const part of counting.fullStream) {
        if (part.type === 'text-delta' && (shown += part.text).includes('three')) stop.abort();
        if (part.type === 'abort') aborted = true;
      }
      const again = await generateText({ model, prompt: 'Again' });
      tabagent.close();
      return { types, calls: (await named.toolCalls).map((c) => c.input), grammar: JSON.stringify(fake.requests[0]!.responseFormat), shown, aborted, again: again.text };
    });
    expect(result.calls).toEqual([{ city: 'Oslo' }]);
    expect(result.grammar).not.toContain('triggered_tags'); // exactly one call to that tool
    // The call's input streams across the worker as it is written: several deltas, then the call.
    const tools = result.types.filter((t) => t.startsWith('tool-'));
    expect(tools.filter((t, i) => t !== tools[i - 1])).toEqual(['tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call']);
    expect(tools.filter((t) => t === 'tool-input-delta').length).toBeGreaterThan(1);
    expect(result.aborted).toBe(true);
    expect(result.shown).toContain('three');
    expect(result.shown).not.toContain('ten');
    expect(result.again).toBe('Again.');
    expect(errors).toEqual([]);
  });

  test('useChat on a stored chat: a tool, an approval asked, the page reloaded, the approval given, the run goes on', async ({ page }) => {
    await open(page, '?app=stored');
    await expect(page.locator('#chat-status')).toHaveText('ready');
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('Weather in Paris?');
    await message.press('Enter');
    // The fake engine compiles its grammar checker (xgrammar, WebAssembly) first: seconds on a busy machine.
    await expect(page.locator('.message.assistant').last()).toContainText('Done: answered.', { timeout: 20_000 });
    await expect(page.locator('.message.assistant .tool').first()).toHaveText('get_weather: output-available');
    await message.fill('Clean up my files');
    await message.press('Enter');
    await expect(page.locator('.tool[data-state="approval-requested"]')).toHaveText(/delete_file: approval-requested/);
    const before = await page.locator('#app .message').evaluateAll((nodes) => nodes.map((n) => n.textContent));

    await page.reload();
    await expect(page.locator('#status')).toHaveText('ready', { timeout: 20_000 });
    // The stored chat, as it was shown, the question still open.
    await expect(page.locator('#app .message')).toHaveCount(4);
    expect(await page.locator('#app .message').evaluateAll((nodes) => nodes.map((n) => n.textContent))).toEqual(before);
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.locator('.message.assistant').last()).toContainText('Done: deleted.');
    await expect(page.locator('.message.assistant').last().locator('.tool')).toHaveText('delete_file: output-available');
    expect(await page.evaluate(() => (window as unknown as { ran: string[] }).ran)).toEqual(['delete old.log']);
    await expect(page.locator('#chat-error')).toHaveCount(0);
  });
});

test.describe('on the real engine: wllama and the tiny GGUF', () => {
  // Each test loads the model in a worker of its own; loads take seconds on one thread.
  test.describe.configure({ timeout: 180_000 });

  test('generateText: two forced tool steps and a last one, through the provider; each step reuses the one before in the KV cache', async ({ page }) => {
    const errors = await open(page);
    const result = await page.evaluate(async (tiny) => {
      const { createTabAgent, generateText, stepCountIs, aiTool, z } = window.aiSdk;
      const tabagent = createTabAgent();
      const seen: unknown[] = [];
      const get_weather = aiTool({ description: 'Weather for a city', inputSchema: z.object({ city: z.enum(['Paris', 'Tokyo']), metric: z.boolean() }), execute: async (input) => (seen.push(input), { temp: 21 }) });
      const out = await generateText({
        model: tabagent(tiny),
        system: 'You are helpful.',
        prompt: 'Weather in Paris?',
        tools: { get_weather },
        reasoning: 'none',
        maxOutputTokens: 60,
        stopWhen: stepCountIs(3),
        prepareStep: ({ stepNumber }) => (stepNumber < 2 ? { toolChoice: { type: 'tool', toolName: 'get_weather' } } : { toolChoice: 'none' }),
      });
      tabagent.close();
      return { seen, steps: out.steps.map((s) => ({ finish: s.finishReason, calls: s.toolCalls.length, input: s.usage.inputTokens, read: s.usage.inputTokenDetails.noCacheTokens, cached: s.usage.inputTokenDetails.cacheReadTokens, output: s.usage.outputTokens })) };
    }, TINY);
    expect(result.seen).toHaveLength(2);
    for (const input of result.seen) expect(input).toEqual({ city: expect.stringMatching(/^(Paris|Tokyo)$/), metric: expect.any(Boolean) });
    expect(result.steps.map((s) => [s.finish, s.calls])).toEqual([
      ['tool-calls', 1],
      ['tool-calls', 1],
      ['length', 0],
    ]);
    // llama.cpp's own counters: each step found the whole prompt of the step before in its KV cache,
    // and read only that step's reply and the new tool result (the crafted model's reply tokenizes
    // again differently in part, so some of it is read again: see e2e/wllama.spec.ts).
    const [first, second, third] = result.steps;
    expect(first!.cached).toBe(0);
    expect(second!.cached).toBeGreaterThanOrEqual(first!.input!);
    expect(third!.cached).toBeGreaterThanOrEqual(second!.input!);
    expect(second!.read).toBeLessThanOrEqual(first!.output! + 30);
    expect(third!.read).toBeLessThanOrEqual(second!.output! + 30);
    expect(errors).toEqual([]);
  });

  test("streamText with stopWhen, on the agent's own model (languageModelOf); 'required' forces a call; the KV cache holds across steps", async ({ page }) => {
    const errors = await open(page);
    const result = await page.evaluate(async (tiny) => {
      const { createAgent, languageModelOf, streamText, stepCountIs, aiTool, z } = window.aiSdk;
      const agent = await createAgent({ model: tiny, storage: false });
      const search = aiTool({ description: 'Search the web', inputSchema: z.object({ safe: z.boolean(), kind: z.enum(['news', 'images']) }), execute: async () => ({ hits: ['tabagent.dev'] }) });
      const stream = streamText({
        model: languageModelOf(agent),
        prompt: 'Search for tabagent',
        tools: { search },
        reasoning: 'none',
        maxOutputTokens: 60,
        stopWhen: stepCountIs(2),
        prepareStep: ({ stepNumber }) => (stepNumber === 0 ? { toolChoice: 'required' } : { toolChoice: 'none' }),
      });
      const types: string[] = [];
      // The call's input as llama.cpp wrote it, token by token.
      const written: string[] = [];
      for await (const part of stream.fullStream) {
        if (part.type === 'tool-input-delta') written.push(part.delta);
        if (!part.type.endsWith('-delta')) types.push(part.type);
      }
      const steps = await stream.steps;
      agent.close();
      return { types, written, calls: steps[0]!.toolCalls.map((c) => c.input), results: steps[0]!.toolResults.map((r) => r.output), cached: steps.map((s) => s.usage.inputTokenDetails.cacheReadTokens), input: steps.map((s) => s.usage.inputTokens) };
    }, TINY);
    expect(result.calls).toEqual([{ safe: expect.any(Boolean), kind: expect.stringMatching(/^(news|images)$/) }]);
    expect(result.results).toEqual([{ hits: ['tabagent.dev'] }]);
    expect(result.types.filter((t) => t === 'start-step' || t === 'finish-step')).toEqual(['start-step', 'finish-step', 'start-step', 'finish-step']);
    expect(result.types).toContain('tool-call');
    expect(result.written.length).toBeGreaterThan(1);
    expect(result.written.join('')).toBe(JSON.stringify(result.calls[0]));
    expect(result.cached[1]).toBeGreaterThanOrEqual(result.input[0]!);
    expect(errors).toEqual([]);
  });

  test('structured output: generateObject, and Output.object beside a tool (the answer held to the schema)', async ({ page }) => {
    const errors = await open(page);
    const result = await page.evaluate(async (tiny) => {
      const { createTabAgent, generateObject, generateText, Output, stepCountIs, aiTool, z } = window.aiSdk;
      const tabagent = createTabAgent();
      const model = tabagent(tiny);
      const Light = z.object({ on: z.boolean(), level: z.enum(['low', 'high']) });
      const { object } = await generateObject({ model, schema: Light, prompt: 'Is it on?', reasoning: 'none', maxOutputTokens: 40 });
      // With a tool beside it, the answer is a call too (the tiny model's longest token decides which).
      const noop = aiTool({ description: 'Does nothing', inputSchema: z.object({ level: z.enum(['low', 'high']) }), execute: async () => 'ok' });
      const out = await generateText({ model, prompt: 'Set the light', tools: { noop }, output: Output.object({ schema: Light }), reasoning: 'none', maxOutputTokens: 60, stopWhen: stepCountIs(4) });
      tabagent.close();
      return { object, steps: out.steps.map((s) => s.finishReason), output: out.output as unknown };
    }, TINY);
    expect(result.object).toEqual({ on: expect.any(Boolean), level: expect.stringMatching(/^(low|high)$/) });
    expect(result.steps.at(-1)).toBe('stop');
    expect(result.output).toEqual({ on: expect.any(Boolean), level: expect.stringMatching(/^(low|high)$/) });
    expect(errors).toEqual([]);
  });

  test('an abort mid-stream keeps the model usable: the next call answers', async ({ page }) => {
    const errors = await open(page);
    const result = await page.evaluate(async (tiny) => {
      const { createTabAgent, streamText, generateText, Output, z } = window.aiSdk;
      const tabagent = createTabAgent();
      const model = tabagent(tiny);
      const stop = new AbortController();
      // A JSON string is text the crafted model fills with its longest token until stopped.
      const stream = streamText({ model, prompt: 'Talk', output: Output.object({ schema: z.object({ note: z.string() }) }), reasoning: 'none', maxOutputTokens: 400, abortSignal: stop.signal });
      let shown = '';
      let aborted = false;
      for await (const part of stream.fullStream) {
        if (part.type === 'text-delta' && (shown += part.text).length > 20) stop.abort();
        if (part.type === 'abort') aborted = true;
      }
      const next = await generateText({ model, prompt: 'Again', reasoning: 'none', maxOutputTokens: 4 });
      tabagent.close();
      return { aborted, shown, next: next.finishReason };
    }, TINY);
    expect(result.aborted).toBe(true);
    expect(result.shown).toMatch(/^\{\s*"note"\s*:\s*"/);
    expect(result.next).toBe('length');
    expect(errors).toEqual([]);
  });

  test('stopSequences on llama.cpp: the reply ends before the stop string, whose first half never streamed, finish stop', async ({ page }) => {
    const errors = await open(page);
    const result = await page.evaluate(async (tiny) => {
      const { createTabAgent, streamText, Output, z } = window.aiSdk;
      const tabagent = createTabAgent();
      const model = tabagent(tiny);
      // Unconstrained, the crafted model writes its longest token, spaces; a JSON string it fills with words.
      const output = Output.object({ schema: z.object({ note: z.string() }) });
      const run = async (stopSequences?: string[]) => {
        const stream = streamText({ model, prompt: 'Talk', output, reasoning: 'none', maxOutputTokens: 12, ...(stopSequences ? { stopSequences } : {}) });
        const deltas: string[] = [];
        for await (const part of stream.fullStream) if (part.type === 'text-delta') deltas.push(part.text);
        const step = (await stream.steps)[0]!;
        const raw = (step.content.find((c) => c.type === 'text')?.providerMetadata?.tabagent as { raw?: string } | undefined)?.raw;
        return { deltas, text: await stream.text, finish: await stream.finishReason, raw };
      };
      const whole = await run();
      // Across tokens: the end of the key's word and its closing quote.
      const stop = 'ote"';
      const stopped = await run([stop]);
      tabagent.close();
      return { whole, stop, stopped };
    }, TINY);
    const { whole, stop, stopped } = result;
    expect(whole.text).toContain(stop);
    expect(stopped.text).toBe(whole.text.slice(0, whole.text.indexOf(stop)).trimEnd());
    expect(stopped.deltas.join('')).toBe(stopped.text);
    expect(stopped.finish).toBe('stop');
    // The turn handed back is what llama.cpp wrote up to the stop string.
    expect(stopped.raw).not.toContain(stop);
    expect(stopped.raw?.trim()).toBe(stopped.text);
    expect(errors).toEqual([]);
  });

  test('useChat with the AI SDK\'s own loop (DirectChatTransport, ToolLoopAgent) on the provider: multi-step tool calls', async ({ page }) => {
    await open(page, '?app=direct&model=tiny');
    await expect(page.locator('#chat-status')).toHaveText('ready');
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('Weather in Paris and Tokyo?');
    await message.press('Enter');
    await expect(page.locator('#chat-status')).toHaveText('ready', { timeout: 60_000 });
    await expect(page.locator('#chat-error')).toHaveCount(0);
    await expect(page.locator('.message.assistant .tool')).toHaveText(['get_weather: output-available', 'get_weather: output-available']);
    expect(await page.evaluate(() => (window as unknown as { ran: string[] }).ran)).toEqual([expect.stringMatching(/^weather (Paris|Tokyo)$/), expect.stringMatching(/^weather (Paris|Tokyo)$/)]);
  });

  test('useChat on a stored chat: the call waits for approval across a reload, then runs, and the run goes on', async ({ page }) => {
    await open(page, '?app=stored&model=tiny');
    await expect(page.locator('#chat-status')).toHaveText('ready');
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('Clean up my files');
    await message.press('Enter');
    await expect(page.locator('.tool[data-state="approval-requested"]')).toHaveText(/delete_file: approval-requested/, { timeout: 60_000 });

    await page.reload();
    await expect(page.locator('#status')).toHaveText('ready', { timeout: 20_000 });
    await expect(page.locator('.tool[data-state="approval-requested"]')).toHaveCount(1);
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.locator('.tool')).toHaveText('delete_file: output-available', { timeout: 60_000 });
    await expect(page.locator('#chat-status')).toHaveText('ready', { timeout: 60_000 });
    await expect(page.locator('#chat-error')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { ran: string[] }).ran)).toEqual([expect.stringMatching(/^delete (old\.log|notes\.txt)$/)]);
    // The stored chat holds the whole run: the call, its result, and the model's next turn.
    const roles = await page.evaluate(async () => {
      const chat = await window.appAgent!.openChat(location.hash.slice(1), { allowMissingTools: true });
      return chat.messages.map((m) => m.role);
    });
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});
