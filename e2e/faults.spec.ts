// FAULTS.md cases that need the real worker, the real IndexedDB or Chromium itself.
import { expect, test } from './fixtures.js';

test('W1: a worker script that is missing or throws at start: WorkerStartError, no hang', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, isWorkerStartError } = window.tabagent;
    const started = performance.now();
    const missing = await createAgent({ model: fakeModel([]), workerUrl: '/no-such-worker.js', startTimeoutMs: 5000 }).catch((e) => e);
    const throwing = await createAgent({ model: fakeModel([]), workerUrl: '/broken-worker.js', startTimeoutMs: 5000 }).catch((e) => e);
    return { missing: isWorkerStartError(missing), throwing: isWorkerStartError(throwing), reason: throwing.reason, ms: performance.now() - started };
  });
  expect(result).toMatchObject({ missing: true, throwing: true });
  expect(result.reason).toContain('this worker is broken at start');
  expect(result.ms).toBeLessThan(5000);
});

test('W2: a worker that crashes mid-reply: WorkerCrashedError, the partial reply kept, and the chat goes on after restart()', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, isWorkerCrashedError } = window.tabagent;
    // Slow tokens: the first words reach the page well before the worker dies (the last may die with it).
    const agent = await createAgent({ model: fakeModel([{ text: 'Let me think about', fault: 'worker-crash', tokenDelayMs: 20 }, 'Back again.']) });
    const chat = await agent.newChat();
    const error = await chat.send('Hello?').catch((e) => e);
    const kept = chat.messages.map((m) => (m.role === 'assistant' ? { text: m.text, finishReason: m.finishReason } : m.role));
    const beforeRestart = await chat.send('Anyone?').catch((e) => e.name);
    await agent.restart();
    const reply = await chat.send('Still there?');
    return { crashed: isWorkerCrashedError(error), kept, beforeRestart, after: reply.text };
  });
  expect(result.crashed).toBe(true);
  // What reached the page before the worker died is kept (the rest died with it).
  expect(result.kept).toEqual(['user', { text: expect.stringMatching(/^Let/), finishReason: 'error' }]);
  expect('Let me think about'.startsWith((result.kept[1] as { text: string }).text)).toBe(true);
  expect(result.beforeRestart).toBe('WorkerCrashedError');
  expect(result.after).toBe('Back again.');
});

test('W2: a worker that stops answering rejects instead of hanging; one closed mid-run rejects as closed, not crashed', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, isAgentClosedError, isWorkerCrashedError } = window.tabagent;
    const hung = await createAgent({ model: fakeModel([{ text: 'x', fault: 'worker-hang' }]), workerTimeoutMs: 1500 });
    const started = performance.now();
    const hang = await (await hung.newChat()).send('go').catch((e) => e);
    const waited = performance.now() - started;
    const closing = await createAgent({ model: fakeModel([{ text: 'a b c d e f g h i j k l', tokenDelayMs: 50 }]) });
    // Mid-run: the model is there and writing when the agent closes (before, it is a cancelled load).
    await closing.ready;
    const chat = await closing.newChat();
    const running = chat.send('go');
    setTimeout(() => closing.close(), 100);
    const closed = await running.catch((e) => e);
    return { hang: isWorkerCrashedError(hang), waited, closed: isAgentClosedError(closed) };
  });
  expect(result.hang).toBe(true);
  expect(result.waited).toBeLessThan(6000);
  expect(result.closed).toBe(true);
});

test('W5: a lost GPU device is a DeviceLostError; a smaller model takes over', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, isDeviceLostError } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([{ text: 'Loading a big', fault: 'device-lost' }], { modelId: 'big-model' }) });
    const chat = await agent.newChat();
    const error = await chat.send('Hello').catch((e) => e);
    await agent.restart({ model: fakeModel(['Hi from the small model.'], { modelId: 'small-model' }) });
    const reply = await chat.send('Hello again');
    return { lost: isDeviceLostError(error), model: agent.model.modelId, text: reply.text, stored: chat.messages.length };
  });
  expect(result).toEqual({ lost: true, model: 'small-model', text: 'Hi from the small model.', stored: 4 });
});

test('S2: a full disk is a StorageQuotaError on the send that caused it; nothing half-written', async ({ page, context }) => {
  const cdp = await context.newCDPSession(page);
  // A small quota for this origin: small chats fit, a 2 MB message does not.
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(page.url()).origin, quotaSize: 500_000 });
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const agent = await createAgent({ model: fakeModel(['small reply', 'fits again']), storage: { dbName: 'quota-test' } });
    // A window no message here overflows: this is about the disk (a message that can never fit is refused before it is written).
    const chat = await agent.newChat({ context: { window: 100_000_000 } });
    await chat.send('a small message');
    (window as unknown as { chat: typeof chat }).chat = chat;
    return chat.messages.length;
  });
  expect(result).toBe(2);
  const full = await page.evaluate(async () => {
    const chat = (window as unknown as { chat: { send(t: string): Promise<{ text: string }>; messages: unknown[] } }).chat;
    const error = (await chat.send('x'.repeat(2_000_000)).catch((e) => e)) as Error;
    return { name: error.name, typed: window.tabagent.isStorageQuotaError(error), count: chat.messages.length };
  });
  expect(full).toEqual({ name: 'StorageQuotaError', typed: true, count: 2 });
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(page.url()).origin });
  const after = await page.evaluate(async () => {
    const chat = (window as unknown as { chat: { send(t: string): Promise<{ text: string }>; id: string } }).chat;
    const reply = await chat.send('a small one');
    const stored = await (await window.tabagent.createAgent({ model: window.tabagent.fakeModel([]), storage: { dbName: 'quota-test' } })).openChat(chat.id);
    return { text: reply.text, stored: stored.messages.map((m) => m.role) };
  });
  expect(after).toEqual({ text: 'fits again', stored: ['user', 'assistant', 'user', 'assistant'] });
});

test('S6: without IndexedDB the agent works in memory and says so', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(window, 'indexedDB', { value: undefined }));
  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready');
  const result = await page.evaluate(async () => {
    const agent = await window.tabagent.createAgent({ model: window.tabagent.fakeModel(['works']) });
    const reply = await (await agent.newChat()).send('hi');
    return { storage: agent.storage, text: reply.text, chats: (await agent.listChats()).length };
  });
  expect(result.storage.kind).toBe('memory');
  expect(result.storage.reason).toMatch(/IndexedDB is unavailable/);
  expect(result).toMatchObject({ text: 'works', chats: 1 });
});

test('P5: memory stays flat over 1,000 streamed sends', async ({ page, context }) => {
  const cdp = await context.newCDPSession(page);
  await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    // Records off: a fake keeping every request (each with the whole conversation) grows by design.
    // A window that holds all 1,200 turns: this measures the page's memory, not the model's.
    const agent = await createAgent({ model: fakeModel(() => 'ok', { recordRequests: false, contextWindow: 1 << 20 }), storage: false });
    const chat = await agent.newChat();
    (window as unknown as { run(n: number): Promise<void> }).run = async (n) => {
      for (let i = 0; i < n; i++) {
        const controller = new AbortController();
        const off = chat.on('text', () => undefined);
        for await (const _ of chat.sendStream('hi', { signal: controller.signal })) void _;
        off();
      }
    };
    await (window as unknown as { run(n: number): Promise<void> }).run(200);
  });
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
  const before = await heap();
  await page.evaluate(() => (window as unknown as { run(n: number): Promise<void> }).run(1000));
  const after = await heap();
  // The conversation itself grows (2,000 short messages kept in memory); nothing else should.
  expect((after - before) / 1000).toBeLessThan(3000);
});

test('restarts run one at a time and leak no worker; close() wins over a restart; a send during a restart waits for the new worker', async ({ page }) => {
  const before = page.workers().length;
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, isAgentClosedError } = window.tabagent;
    const agent = await createAgent({ model: fakeModel(() => 'still here') });
    const chat = await agent.newChat();
    const restarts = Promise.all([agent.restart(), agent.restart()]);
    const reply = await chat.send('hello?');
    await restarts;
    const closing = await createAgent({ model: fakeModel(['x']) });
    const restart = closing.restart().catch((e) => e);
    closing.close();
    return { reply: reply.text, closedWins: isAgentClosedError(await restart) };
  });
  expect(result).toEqual({ reply: 'still here', closedWins: true });
  // One worker for the first agent; none for the closed one.
  await expect.poll(() => page.workers().length).toBe(before + 1);
});
