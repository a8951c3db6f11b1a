// The run API through the real worker and comlink: steps, stream parts, stop
// conditions, step preparation, per-send settings, tools changed mid-chat,
// page-reported errors, and structured output.
import { expect, test } from './fixtures.js';

test('steps and stream parts: reasoning, text, the call, its progress and result, step ends, one final part', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const fake = fakeModel([`<think>Need the data.</think>\n\nFetching.\n${toolCallText('fetch_data', { id: 7 })}`, '<think>Got it.</think>\n\nIt is 42.'], { modelId: 'Qwen3-0.6B-q4f16_1-MLC' });
    const agent = await createAgent({ model: fake });
    const fetchData = tool({
      name: 'fetch_data',
      description: 'Fetch a record',
      input: z.object({ id: z.number() }),
      run: async ({ id }, ctx) => {
        ctx.update({ loading: id });
        return { id, value: 42 };
      },
    });
    const chat = await agent.newChat({ tools: [fetchData] });
    const kinds: string[] = [];
    let final: import('../src/index.js').Reply | undefined;
    for await (const part of chat.sendStream('What is record 7?')) {
      const kind = part.type === 'final' ? 'final' : `${part.type}@${part.step}`;
      if (kinds.at(-1) !== kind) kinds.push(kind);
      if (part.type === 'final') final = part.reply;
    }
    const steps = final!.steps.map((s) => ({ index: s.index, text: s.text, reasoning: s.reasoning, calls: s.toolCalls.map((c) => c.name), results: s.toolResults.map((r) => [r.content, r.status, r.attempts]) }));
    return { kinds, steps, sums: final!.stats.completionTokens === final!.steps.reduce((n, s) => n + s.usage.completionTokens, 0) };
  });
  // The call is shown as it is written (tool-input-*), then read (tool-call).
  expect(result.kinds).toEqual(['reasoning@0', 'text@0', 'tool-input-start@0', 'tool-input-delta@0', 'tool-input-end@0', 'tool-call@0', 'tool-progress@0', 'tool-result@0', 'step-end@0', 'reasoning@1', 'text@1', 'step-end@1', 'final']);
  expect(result.steps).toEqual([
    { index: 0, text: 'Fetching.', reasoning: 'Need the data.', calls: ['fetch_data'], results: [['{"id":7,"value":42}', 'ok', 1]] },
    { index: 1, text: 'It is 42.', reasoning: 'Got it.', calls: [], results: [] },
  ]);
  expect(result.sums).toBe(true);
});

test('stopWhen and prepareStep steer the loop; a send can narrow the tools', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, hasToolCall, hopCountIs, z } = window.tabagent;
    const fake = fakeModel([
      toolCallText('search', { q: 'a' }),
      toolCallText('finish', { answer: 'A' }),
      'Found A.',
      toolCallText('search', { q: 'b' }),
      toolCallText('search', { q: 'c' }),
    ]);
    const agent = await createAgent({ model: fake });
    const ran: string[] = [];
    const search = tool({ name: 'search', description: 'Search', input: z.object({ q: z.string() }), run: ({ q }) => (ran.push(q), `hits for ${q}`) });
    const finish = tool({ name: 'finish', description: 'Finish', input: z.object({ answer: z.string() }), run: () => (ran.push('finish'), 'ok') });
    const chat = await agent.newChat({ tools: [search, finish], stopWhen: hasToolCall('finish') });
    const first = await chat.send('Find A');
    const answered = await chat.sendToolResult(first.toolCalls[0]!.id, 'accepted');
    const second = await chat.send('Find B', { stopWhen: hopCountIs(1), activeTools: ['search'], prepareStep: ({ hop }) => (hop === 1 ? { generation: { maxTokens: 50 } } : undefined) });
    const systems = fake.requests.map((r) => r.messages[0]!.content.includes('"finish"'));
    return { ran, first: first.toolCalls.map((c) => c.name), answered: answered.text, second: second.toolCalls.map((c) => c.arguments), hops: second.stats.hops, systems, maxTokens: fake.requests.map((r) => r.maxTokens ?? null) };
  });
  // finish is never run: the condition hands it to the page.
  expect(result.ran).toEqual(['a', 'b']);
  expect(result.first).toEqual(['finish']);
  expect(result.answered).toBe('Found A.');
  expect(result.second).toEqual([{ q: 'c' }]);
  expect(result.hops).toBe(1);
  // The first run offered both tools; the second only search.
  expect(result.systems).toEqual([true, true, true, false, false]);
  expect(result.maxTokens).toEqual([null, null, null, null, 50]);
});

test('tools added mid-chat are stored by name, results keep their outcomes, and both survive a reload', async ({ page }) => {
  const id = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallsText, z } = window.tabagent;
    const fake = fakeModel([toolCallsText([{ name: 'slow', arguments: {} }, { name: 'guarded', arguments: {} }]), 'Done.']);
    const agent = await createAgent({ model: fake });
    const chat = await agent.newChat({ tools: [], approve: () => ({ approved: false, reason: 'not today' }) });
    const slow = tool({ name: 'slow', description: '', input: z.object({}), timeoutMs: 30, onError: 'inform', run: () => new Promise(() => undefined) });
    const guarded = tool({ name: 'guarded', description: '', input: z.object({}), needsApproval: true, run: () => 'never' });
    await chat.setTools([slow, guarded]);
    await chat.send('go');
    return chat.id;
  });
  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready');
  const after = await page.evaluate(async (chatId) => {
    const { createAgent, fakeModel, tool, isMissingToolsError, z } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([]) });
    const missing = await agent.openChat(chatId, { tools: [] }).catch((e) => (isMissingToolsError(e) ? e.missing : e));
    const stub = (name: string) => tool({ name, description: '', input: z.object({}), run: () => null });
    const chat = await agent.openChat(chatId, { tools: [stub('slow'), stub('guarded')] });
    const results = chat.messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
    return { missing, results: results.map((r) => [r.name, r.status, r.attempts, (r.durationMs ?? -1) >= 0]) };
  }, id);
  expect(after.missing).toEqual(['slow', 'guarded']);
  expect(after.results).toEqual([
    ['slow', 'timeout', 1, true],
    ['guarded', 'denied', 0, true],
  ]);
});

test('the page reports a failed raw call, and the model reads it as an error', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, rawTool, toolCallText } = window.tabagent;
    const fake = fakeModel([toolCallText('upload', { name: 'a.txt' }), 'The upload failed.']);
    const agent = await createAgent({ model: fake });
    const upload = rawTool({ name: 'upload', description: 'Upload a file', parameters: { type: 'object', properties: { name: { type: 'string' } } } });
    const chat = await agent.newChat({ tools: [upload] });
    const reply = await chat.send('Upload a.txt');
    const after = await chat.sendToolResult(reply.toolCalls[0]!.id, { error: 'The network is down.' });
    const stored = chat.messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
    return { read: fake.requests[1]!.last, text: after.text, stored: stored.map((r) => [r.isError, r.status]) };
  });
  expect(result).toEqual({ read: '<tool_response>\n{"error":"The network is down."}\n</tool_response>', text: 'The upload failed.', stored: [[true, 'error']] });
});

test('structured output: typed objects in a chat and one-shot, streamed as they grow', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, isInvalidObjectError, z } = window.tabagent;
    const fake = fakeModel([
      '{"title": "Oslo trip", "days": 3, "stops": ["museum", "fjord"]}',
      { text: '{"title": "Bergen", "days": 2, "stops": ["fish market"]}', tokenDelayMs: 20 },
      '{"title": "x", "days": 0, "stops": []}',
      'Planned.',
    ]);
    const agent = await createAgent({ model: fake });
    const plan = z.object({ title: z.string(), days: z.number().int(), stops: z.array(z.string()) });
    const chat = await agent.newChat({ system: 'You plan trips.' });
    const first = await chat.generateObject({ schema: plan, prompt: 'Plan Oslo' });
    const stream = chat.generateObjectStream({ schema: plan, prompt: 'Plan Bergen' });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    const streamed = (await stream.result).object;
    const invalid = await agent
      .generateObject({ schema: plan.refine((p) => p.days > 0, 'a trip takes at least a day'), prompt: 'Plan nothing' })
      .catch((e) => (isInvalidObjectError(e) ? { text: e.text, issues: e.issues } : e));
    const oneShot = await agent.generate({ prompt: 'Say you planned it.' });
    return { first: first.object, streamed, partials: partials.length, invalid, oneShot: oneShot.text, stored: chat.messages.length, chats: (await agent.listChats()).length };
  });
  expect(result.first).toEqual({ title: 'Oslo trip', days: 3, stops: ['museum', 'fjord'] });
  expect(result.streamed).toEqual({ title: 'Bergen', days: 2, stops: ['fish market'] });
  expect(result.partials).toBeGreaterThan(2);
  expect(result.invalid).toEqual({ text: '{"title": "x", "days": 0, "stops": []}', issues: [{ path: '', message: 'a trip takes at least a day' }] });
  expect(result.oneShot).toBe('Planned.');
  // Two exchanges in the chat; the one-shot calls stored nothing.
  expect(result.stored).toBe(4);
  expect(result.chats).toBe(1);
});
