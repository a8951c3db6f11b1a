// One model for every tab of a site (`createAgent({ shared: true })`): pages
// of one browser context share the SharedWorker named for their model. The
// second and third tabs get the loaded model with no second load; generations
// from all tabs queue on it; a closed tab (its Web Lock freed by the browser)
// or an abort frees its place without touching another tab's run; a crash
// reaches every tab, and each starts again. The strict fake, then real wllama.
import { readdirSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { expectOwnPrefixReused, personaPrompt, prefillNote, type Hop } from './prefix-reuse.js';
import { startGgufServer } from './support/gguf-server.mjs';

declare global {
  interface Window {
    shared: { agent: import('../src/index.js').Agent; chat: import('../src/index.js').Chat; loadMs: number; progress: number };
  }
}

async function openTab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.locator('#status')).toHaveText('ready');
  return page;
}

/** A tab's agent on the shared fake: its own function script, which names the tab in every answer. */
function fakeTab(page: Page, name: string) {
  return page.evaluate(async (name) => {
    const { createAgent, fakeModel, toolCallText, tool, rawTool, z } = window.tabagent;
    const model = fakeModel(
      (r) => {
        if (r.last.startsWith('slow, never')) return { text: `${name} says ${'word '.repeat(200).trim()}`, tokenDelayMs: 30 };
        if (r.last.startsWith('slow')) return { text: `${name} says ${'word '.repeat(30).trim()}`, tokenDelayMs: 30 };
        if (r.last === 'weather?') return toolCallText('get_weather', { city: 'Paris' });
        if (r.last === 'search?') return toolCallText('search_web', { q: 'tabagent' });
        if (r.last.includes('"temp"')) return `${name}: 21 degrees in Paris.`;
        if (r.last.includes('"hits"')) return `${name}: found tabagent.dev.`;
        return `${name} answers ${r.last}`;
      },
      { modelId: 'shared-fake', load: { ms: 1500, bytes: 1e6 } },
    );
    const started = performance.now();
    let progress = 0;
    const agent = await createAgent({ model, shared: true, storage: false, onProgress: () => void progress++ });
    const info = await agent.ready;
    const loadMs = performance.now() - started;
    const weather = tool({ name: 'get_weather', description: 'Weather for a city', input: z.object({ city: z.string() }), run: ({ city }) => ({ temp: 21, city }) });
    const search = rawTool({ name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
    const chat = await agent.newChat({ tools: [weather, search] });
    window.shared = { agent, chat, loadMs, progress };
    return { info, loadMs, progress };
  }, name);
}

test('three tabs, one fake model: the second and third load nothing; every chat answers with managed and raw tools', async ({ page, context }) => {
  const first = await fakeTab(page, 'one');
  const others = [await openTab(context), await openTab(context)];
  const second = await fakeTab(others[0]!, 'two');
  const third = await fakeTab(others[1]!, 'three');
  for (const tab of [first, second, third]) expect(tab.info).toMatchObject({ modelId: 'shared-fake', engine: 'fake', host: 'shared-worker' });
  expect(first.progress).toBeGreaterThan(0);
  expect([second.progress, third.progress]).toEqual([0, 0]);
  // The scripted load takes 1.5 s; joining it takes a worker connection.
  expect(first.loadMs).toBeGreaterThan(1400);
  expect(Math.max(second.loadMs, third.loadMs)).toBeLessThan(first.loadMs / 5);
  test.info().annotations.push({ type: 'load ms', description: `first ${first.loadMs.toFixed(0)}, second ${second.loadMs.toFixed(0)}, third ${third.loadMs.toFixed(0)}` });

  const replies = await Promise.all(
    [page, ...others].map((tab) =>
      tab.evaluate(async () => {
        const { chat } = window.shared;
        const managed = await chat.send('weather?');
        const raw = await chat.send('search?');
        const answered = await chat.sendToolResult(raw.toolCalls[0]!.id, { hits: ['tabagent.dev'] });
        return { managed: managed.text, calls: raw.toolCalls.map((c) => c.name), answered: answered.text };
      }),
    ),
  );
  expect(replies).toEqual(
    ['one', 'two', 'three'].map((name) => ({ managed: `${name}: 21 degrees in Paris.`, calls: ['search_web'], answered: `${name}: found tabagent.dev.` })),
  );
});

test("closing a tab mid-generation leaves the other's run whole; an abort in one tab never touches the other", async ({ page, context }) => {
  await fakeTab(page, 'one');
  const other = await openTab(context);
  await fakeTab(other, 'two');
  const whole = `two says ${'word '.repeat(30).trim()}`;

  // An abort in tab one, while tab two's reply waits behind it and then runs.
  const aborted = page.evaluate(async () => {
    const stop = new AbortController();
    const sending = window.shared.chat.send('slow, then stopped', { signal: stop.signal }).catch((e: Error) => e.name);
    setTimeout(() => stop.abort(), 150);
    return sending;
  });
  const waiting = other.evaluate(async () => (await window.shared.chat.send('slow, and whole')).text);
  expect(await aborted).toBe('AbortError');
  expect(await waiting).toBe(whole);

  // Tab one closes mid-reply: tab two's waiting reply starts at once and comes whole.
  await page.evaluate(() => void window.shared.chat.send('slow, never finished').catch(() => undefined));
  await page.waitForTimeout(150);
  const running = other.evaluate(async () => {
    const asked = performance.now();
    const text = (await window.shared.chat.send('slow, after the close')).text;
    return { text, ms: performance.now() - asked };
  });
  await page.close();
  const after = await running;
  expect(after.text).toBe(whole);
  // Its 32 tokens at 30 ms, not first the rest of tab one's 202: the closed tab's Web Lock came free, and the host let it go.
  expect(after.ms).toBeLessThan(3_000);
});

test('a crash of the shared host reaches every tab as WorkerCrashedError, and each starts again on a new one', async ({ page, context }) => {
  const start = (tab: Page) =>
    tab.evaluate(async () => {
      const { createAgent, fakeModel } = window.tabagent;
      const model = fakeModel((r) => (r.last === 'crash' ? { text: 'going down', fault: 'worker-crash', tokenDelayMs: 20 } : r.last === 'wait' ? { text: 'long wait', tokenDelayMs: 200 } : 'back again'), { modelId: 'crashing-fake' });
      const agent = await createAgent({ model, shared: true, storage: false });
      await agent.ready;
      window.shared = { agent, chat: await agent.newChat(), loadMs: 0, progress: 0 };
    });
  await start(page);
  const other = await openTab(context);
  await start(other);
  // Tab one's request crashes the host while tab two's waits behind it.
  const crashed = page.evaluate(() => window.shared.chat.send('crash').then(() => 'answered', (e: { name: string }) => e.name));
  await page.waitForTimeout(10);
  const waiting = other.evaluate(() => window.shared.chat.send('wait').then(() => 'answered', (e: { name: string }) => e.name));
  expect(await crashed).toBe('WorkerCrashedError');
  expect(await waiting).toBe('WorkerCrashedError');
  const again = await Promise.all(
    [page, other].map((tab) =>
      tab.evaluate(async () => {
        const info = await window.shared.agent.restart();
        return { host: info.host, text: (await window.shared.chat.send('hello')).text };
      }),
    ),
  );
  expect(again).toEqual([
    { host: 'shared-worker', text: 'back again' },
    { host: 'shared-worker', text: 'back again' },
  ]);
});

test('a shared worker whose script is missing fails createAgent with WorkerStartError at once, not after the start timeout', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, isWorkerStartError } = window.tabagent;
    const started = performance.now();
    const error = await createAgent({ model: fakeModel(['x']), shared: true, storage: false, workerUrl: '/missing-worker.js', startTimeoutMs: 10_000 }).catch((e: unknown) => e);
    return { typed: isWorkerStartError(error), ms: performance.now() - started };
  });
  expect(result.typed).toBe(true);
  expect(result.ms).toBeLessThan(5_000);
});

/** A tab's agent on the tiny GGUF (real wllama), asking to share it. */
function ggufTab(page: Page, fresh: boolean, url: string, workerUrl?: string) {
  return page.evaluate(
    async ({ url, fresh, workerUrl }) => {
      const { createAgent, deleteCachedModel } = window.tabagent;
      const model = { gguf: url, contextSize: 1024 };
      // The first tab downloads it: nothing is in the browser's cache.
      if (fresh) await deleteCachedModel(model);
      const started = performance.now();
      const warnings: unknown[] = [];
      let progress = 0;
      const agent = await createAgent({ model, shared: true, storage: false, onProgress: () => void progress++, ...(workerUrl ? { workerUrl } : {}) });
      agent.on('model-warning', (warning) => warnings.push(warning));
      const info = await agent.ready;
      const loadMs = performance.now() - started;
      window.shared = { agent, chat: await agent.newChat({ system: 'You are helpful.' }), loadMs, progress };
      return { info, loadMs, progress, warnings };
    },
    { url, fresh, workerUrl },
  );
}

/** A new chat of the tab's agent says hi, in 4 tokens. */
function sayHi(page: Page) {
  return page.evaluate(async () => {
    const chat = await window.shared.agent.newChat();
    const reply = await chat.send('Say hi', { generation: { thinking: false, maxTokens: 4 } });
    return { finish: reply.finishReason, tokens: reply.stats.completionTokens };
  });
}

// wllama runs in the shared worker too, on one thread (its llama.cpp module in the worker's own
// thread: a shared worker starts no workers): the second and third tabs join the loaded model.
test('real wllama shared by three tabs: one GGUF download, one load; the second and third join it at once; two tabs run managed and raw tools at once', async ({ page, context }) => {
  test.setTimeout(90_000);
  // Served from a server of the test's own, which counts what it is asked: a shared worker's requests are routed by no Playwright route.
  const server = await startGgufServer({ 'tiny-qwen3.gguf': 'dist/e2e/models/tiny-qwen3.gguf' });
  const url = `${server.origin}/tiny-qwen3.gguf`;
  try {
    const ggufRequests = () => server.requests.filter((r) => r.name === 'tiny-qwen3.gguf').length;
    const first = await ggufTab(page, true, url);
    const requestsForFirst = ggufRequests();
    const others = [await openTab(context), await openTab(context)];
    const second = await ggufTab(others[0]!, false, url);
    const third = await ggufTab(others[1]!, false, url);
    for (const tab of [first, second, third]) {
      expect(tab.info).toMatchObject({ modelId: 'tiny-qwen3', engine: 'wllama', host: 'shared-worker', threads: 1 });
      expect(tab.info).not.toHaveProperty('notShared');
      expect(tab.warnings).toEqual([]);
    }
    expect(first.progress).toBeGreaterThan(0);
    expect([second.progress, third.progress]).toEqual([0, 0]);
    expect(requestsForFirst).toBeGreaterThan(0);
    // Nothing is fetched again, not even from the browser's cache: the second and third tabs join the loaded model.
    expect(ggufRequests()).toBe(requestsForFirst);
    expect(Math.max(second.loadMs, third.loadMs)).toBeLessThan(first.loadMs / 2);
    test.info().annotations.push({ type: 'load ms', description: `first ${first.loadMs.toFixed(0)}, second ${second.loadMs.toFixed(0)}, third ${third.loadMs.toFixed(0)}; GGUF requests ${ggufRequests()}` });
    const other = others[0]!;

    const [managed, raw] = await Promise.all([
      page.evaluate(async () => {
        const { tool, z } = window.tabagent;
        const seen: unknown[] = [];
        const weather = tool({ name: 'get_weather', description: 'Weather for a city', input: z.object({ city: z.enum(['Paris', 'Tokyo']) }), run: (args) => (seen.push(args), { temp: 21 }) });
        const chat = await window.shared.agent.newChat({ system: 'You are helpful.', tools: [weather] });
        const reply = await chat.send('Weather in Paris?', {
          generation: { thinking: false },
          prepareStep: ({ steps }) => (steps.length === 0 ? { toolChoice: { name: 'get_weather' } } : { toolChoice: 'none', generation: { thinking: false, maxTokens: 6 } }),
        });
        return { seen, steps: reply.steps.map((s) => s.toolCalls.map((c) => c.name)) };
      }),
      other.evaluate(async () => {
        const { rawTool } = window.tabagent;
        const search = rawTool({ name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { kind: { enum: ['news', 'images'] } }, required: ['kind'] } });
        const chat = await window.shared.agent.newChat({ tools: [search], generation: { thinking: false, maxTokens: 60 } });
        const first = await chat.send('Search for tabagent', { toolChoice: 'required' });
        const done = await chat.sendToolResult(first.toolCalls[0]!.id, { hits: ['tabagent.dev'] }, { toolChoice: 'none', generation: { thinking: false, maxTokens: 4 } });
        return { calls: first.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })), finish: done.finishReason };
      }),
    ]);
    expect(managed.seen).toHaveLength(1);
    expect(managed.steps).toEqual([['get_weather'], []]);
    expect(raw.calls).toEqual([{ name: 'search_web', arguments: { kind: expect.stringMatching(/^(news|images)$/) } }]);
    expect(raw.finish).toBe('length');
  } finally {
    await server.close();
  }
});

// The shared worker outlives an agent that closes (the tab is still open): the next load of the
// GGUF runs llama.cpp's code again in the same worker, after the first copy was let go of.
test('real wllama shared: the last agent closes, the model unloads, and the next agent in the tab loads it again from the cache and answers', async ({ page }) => {
  test.setTimeout(90_000);
  const server = await startGgufServer({ 'tiny-qwen3.gguf': 'dist/e2e/models/tiny-qwen3.gguf' });
  try {
    const url = `${server.origin}/tiny-qwen3.gguf`;
    const first = await ggufTab(page, true, url);
    expect(await sayHi(page)).toEqual({ finish: 'length', tokens: 4 });
    const downloaded = server.downloads('tiny-qwen3.gguf');
    await page.evaluate(() => window.shared.agent.close());
    const again = await ggufTab(page, false, url);
    for (const tab of [first, again]) expect(tab.info).toMatchObject({ engine: 'wllama', host: 'shared-worker', threads: 1 });
    // Loaded again (its progress reported), from the browser's cache: no second download.
    expect(again.progress).toBeGreaterThan(0);
    expect(server.downloads('tiny-qwen3.gguf')).toBe(downloaded);
    expect(await sayHi(page)).toEqual({ finish: 'length', tokens: 4 });
  } finally {
    await server.close();
  }
});

// A shared worker runs under the policy its script is served with (here `?csp=`, e2e/harness/vite.config.ts).
const WORKER = `/assets/${readdirSync('dist/e2e/assets').find((name) => /^worker-[\w-]+\.js$/.test(name))}`;
const workerWithPolicy = (scriptSrc: string) => `${WORKER}?csp=${encodeURIComponent(`script-src ${scriptSrc}; worker-src 'self' blob:`)}`;

// Two tests: one context each, since one shared worker name cannot serve two script URLs.
test("real wllama under a shared worker's policy with script-src blob: runs in the shared worker and answers", async ({ page }) => {
  test.setTimeout(90_000);
  const server = await startGgufServer({ 'tiny-qwen3.gguf': 'dist/e2e/models/tiny-qwen3.gguf' });
  try {
    const tab = await ggufTab(page, true, `${server.origin}/tiny-qwen3.gguf`, workerWithPolicy("'self' 'wasm-unsafe-eval' blob:"));
    expect(tab.info).toMatchObject({ engine: 'wllama', host: 'shared-worker', threads: 1 });
    expect(tab.warnings).toEqual([]);
    expect(await sayHi(page)).toEqual({ finish: 'length', tokens: 4 });
  } finally {
    await server.close();
  }
});

test("real wllama under a shared worker's policy without script-src blob: the tab runs it in a worker of its own, and says why", async ({ page }) => {
  test.setTimeout(90_000);
  const server = await startGgufServer({ 'tiny-qwen3.gguf': 'dist/e2e/models/tiny-qwen3.gguf' });
  try {
    const tab = await ggufTab(page, true, `${server.origin}/tiny-qwen3.gguf`, workerWithPolicy("'self' 'wasm-unsafe-eval'"));
    expect(tab.info).toMatchObject({ engine: 'wllama', host: 'worker', notShared: expect.stringContaining('blob:') });
    expect(tab.warnings).toEqual([expect.objectContaining({ type: 'not-shared', modelId: 'tiny-qwen3' })]);
    // The tab's own worker runs it, and the chat answers: a managed tool, on real generation.
    const reply = await page.evaluate(async () => {
      const { tool, z } = window.tabagent;
      const seen: unknown[] = [];
      const weather = tool({ name: 'get_weather', description: 'Weather for a city', input: z.object({ city: z.enum(['Paris', 'Tokyo']) }), run: (args) => (seen.push(args), { temp: 21 }) });
      const chat = await window.shared.agent.newChat({ system: 'You are helpful.', tools: [weather] });
      const reply = await chat.send('Weather in Paris?', {
        generation: { thinking: false },
        prepareStep: ({ steps }) => (steps.length === 0 ? { toolChoice: { name: 'get_weather' } } : { toolChoice: 'none', generation: { thinking: false, maxTokens: 6 } }),
      });
      return { seen, steps: reply.steps.map((s) => s.toolCalls.map((c) => c.name)), finish: reply.finishReason };
    });
    expect(reply).toEqual({ seen: [{ city: expect.stringMatching(/^(Paris|Tokyo)$/) }], steps: [['get_weather'], []], finish: 'length' });
  } finally {
    await server.close();
  }
});

// Issue 38: two tabs' chats take turns on the one model. Each keeps its prefix (llama.cpp's host
// prompt cache holds the chat its one slot let go of): a hop reads only its new messages, even
// where the two chats together outgrow the KV cache's 1,024 tokens.
test('real wllama shared by two tabs whose chats take turns: each hop reads only its own new messages', async ({ page, context }) => {
  test.setTimeout(90_000);
  const server = await startGgufServer({ 'tiny-qwen3.gguf': 'dist/e2e/models/tiny-qwen3.gguf' });
  try {
    const url = `${server.origin}/tiny-qwen3.gguf`;
    await ggufTab(page, true, url);
    const other = await openTab(context);
    await ggufTab(other, false, url);
    const tabs = { Ada: page, Bob: other };
    for (const [name, tab] of Object.entries(tabs)) {
      // About 670 tokens each: the two do not fit the window together.
      await tab.evaluate(async (system) => {
        window.shared.chat = await window.shared.agent.newChat({ system, generation: { thinking: false, maxTokens: 4 } });
      }, personaPrompt(name, 38));
    }
    const hops: Hop[] = [];
    for (const [i, name] of ['Ada', 'Bob', 'Ada', 'Bob', 'Ada', 'Bob'].entries()) {
      const hop = await tabs[name as keyof typeof tabs].evaluate(async (question) => {
        const reply = await window.shared.chat.send(question);
        const { promptTokens, cachedTokens } = reply.steps[0]!.usage;
        return { read: promptTokens, cached: cachedTokens ?? 0, finish: reply.finishReason };
      }, `Question ${i} from ${name}`);
      hops.push({ chat: name, ...hop });
    }
    test.info().annotations.push(prefillNote(hops));
    expect(hops[0]!.read + hops[1]!.read).toBeGreaterThan(1024);
    expectOwnPrefixReused(hops);
  } finally {
    await server.close();
  }
});
