// An agent that is there before its model: the store works while a model
// loads, loads report bytes, can be cancelled, fail, be retried, and switch
// models under open chats.
import { expect, test } from './fixtures.js';

test('chats can be listed, opened and exported while the model still loads; a send waits for it', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    // A first visit stores a chat.
    const first = await createAgent({ model: fakeModel(['Hello there.']), storage: { dbName: 'store-first' } });
    const stored = await first.newChat();
    await stored.send('Hi');
    first.close();

    // A later visit: the agent is there at once, the model still downloading.
    const agent = await createAgent({ storage: { dbName: 'store-first' } });
    const states: string[] = [agent.modelState];
    agent.on('model-state', ({ state }) => states.push(state));
    const progress: Array<{ phase: string; loaded?: number; total?: number }> = [];
    const loading = agent.load(fakeModel(['Welcome back.'], { load: { ms: 300, bytes: 5_000_000 } }), { onProgress: (p) => progress.push({ phase: p.phase, loaded: p.loaded, total: p.total }) });
    const during = agent.modelState;
    const list = await agent.listChats();
    const chat = await agent.openChat(stored.id);
    const exported = await agent.exportChat(stored.id);
    const reply = await chat.send('Back again');
    await loading;
    return { states, during, listed: list.map((c) => c.id), messages: exported.messages.length, text: reply.text, phases: [...new Set(progress.map((p) => p.phase))], last: progress.at(-1), id: stored.id };
  });
  expect(result.during).toBe('loading');
  expect(result.listed).toEqual([result.id]);
  expect(result.messages).toBe(2);
  expect(result.text).toBe('Welcome back.');
  expect(result.states).toEqual(['idle', 'loading', 'ready']);
  expect(result.phases).toEqual(['download', 'load']);
});

test('a scripted download reports bytes, while the store answers; agent.ready resolves with the model', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const reports: Array<{ phase: string; loaded?: number; total?: number; bytesPerSecond?: number }> = [];
    const agent = await createAgent({
      model: fakeModel([], { modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', load: { ms: 600, bytes: 300_000_000 } }),
      storage: false,
      onProgress: (p) => reports.push({ phase: p.phase, loaded: p.loaded, total: p.total, bytesPerSecond: p.bytesPerSecond }),
    });
    const listedWhileLoading = (await agent.listChats()).length;
    const state = agent.modelState;
    const info = await agent.ready;
    return { state, listedWhileLoading, info: info.modelId, reports, after: agent.modelState };
  });
  expect(result.state).toBe('loading');
  expect(result.listedWhileLoading).toBe(0);
  expect(result.info).toBe('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
  expect(result.after).toBe('ready');
  const downloads = result.reports.filter((r) => r.phase === 'download');
  expect(downloads.length).toBeGreaterThan(3);
  expect(downloads.every((r) => r.total === 300_000_000)).toBe(true);
  const loaded = downloads.map((r) => r.loaded!);
  expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
  expect(loaded.at(-1)).toBe(300_000_000);
  expect(downloads.at(-1)!.bytesPerSecond).toBeGreaterThan(0);
});

test('a cancelled load leaves no model ("idle"), sends fail at once, and the next load works', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, isModelNotLoadedError } = window.tabagent;
    const agent = await createAgent({ storage: false });
    const noModel = await agent.newChat().then((chat) => chat.send('hi')).catch((e) => isModelNotLoadedError(e));
    const stop = new AbortController();
    let firstReport = () => undefined as void;
    const reported = new Promise<void>((resolve) => (firstReport = resolve));
    const cancelled = agent.load(fakeModel(['never']), { signal: stop.signal, onProgress: () => firstReport() }).catch((e) => e.name);
    await reported;
    stop.abort();
    const name = await cancelled;
    const state = agent.modelState;
    const chat = await agent.newChat();
    const refused = await chat.send('hello').catch((e) => isModelNotLoadedError(e));
    await agent.load(fakeModel(['Loaded this time.']));
    const reply = await chat.send('hello again');
    return { noModel, name, state, refused, text: reply.text, after: agent.modelState };
  });
  expect(result.noModel).toBe(true);
  expect(result.name).toBe('AbortError');
  expect(result.state).toBe('idle');
  expect(result.refused).toBe(true);
  expect(result.text).toBe('Loaded this time.');
  expect(result.after).toBe('ready');
});

test('a failed load: ready and sends reject with its typed error; a retry loads', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, isModelLoadError } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([], { load: { ms: 50, bytes: 1000, fail: 'the network request failed' } }), storage: false });
    const error = await agent.ready.catch((e) => e);
    const state = agent.modelState;
    const chat = await agent.newChat();
    const sendError = await chat.send('hi').catch((e) => e);
    await agent.load(fakeModel(['Second try worked.']));
    return { typed: isModelLoadError(error), retryable: error.retryable, reason: error.reason, state, same: isModelLoadError(sendError), text: (await chat.send('hi')).text };
  });
  expect(result).toEqual({ typed: true, retryable: true, reason: 'the network request failed', state: 'failed', same: true, text: 'Second try worked.' });
});

test('switching models mid-chat: the chat carries on with the new one', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const small = fakeModel(['I am the small one.'], { modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' });
    const large = fakeModel(['I am the larger one.'], { modelId: 'Llama-3.2-1B-Instruct-q4f32_1-MLC' });
    const agent = await createAgent({ model: small, storage: false });
    const chat = await agent.newChat({ system: 'Be brief.' });
    const first = await chat.send('Who are you?');
    const info = await agent.load(large);
    const second = await chat.send('And now?');
    return { first: first.text, second: second.text, model: info.modelId, family: info.family, seen: large.requests[0]!.messages.map((m) => m.content) };
  });
  expect(result.first).toBe('I am the small one.');
  expect(result.second).toBe('I am the larger one.');
  expect(result).toMatchObject({ model: 'Llama-3.2-1B-Instruct-q4f32_1-MLC', family: 'llama' });
  expect(result.seen).toEqual(['Be brief.', 'Who are you?', 'I am the small one.', 'And now?']);
});
