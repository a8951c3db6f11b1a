// The real engine: wllama (llama.cpp in WebAssembly) on the CPU in headless
// Chromium, running a tiny GGUF generated at test time (scripts/tiny-gguf.mjs)
// with Qwen3's real tokenizer and chat template and crafted weights: greedy
// decoding picks the longest token the grammar allows, so every reply is
// deterministic and every call is exactly what the grammar let through.
// Real tokenization, templating, GBNF grammar and KV cache; no fake.
import { expect, test } from './fixtures.js';
import { expectOwnPrefixReused, personaPrompt, prefillNote, type Hop } from './prefix-reuse.js';

const TINY = '/models/tiny-qwen3.gguf';

// Every test loads the model in a worker of its own; loads take a few seconds on one thread.
test.describe.configure({ timeout: 60_000 });

test('loads the GGUF and says what runs it, with download progress in bytes', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, deleteCachedModel, isModelCached } = window.tabagent;
    const model = { gguf: url, contextSize: 1024 };
    await deleteCachedModel(model);
    const before = await isModelCached(model);
    const progress: Array<{ phase: string; loaded?: number; total?: number }> = [];
    const agent = await createAgent({ model, storage: false, onProgress: ({ phase, loaded, total }) => progress.push({ phase, loaded, total }) });
    const info = await agent.ready;
    agent.close();
    const after = await isModelCached(model);
    await deleteCachedModel(model);
    const size = (await (await fetch(url)).arrayBuffer()).byteLength;
    return { info, progress, before, after, gone: await isModelCached(model), size };
  }, TINY);
  expect(result.info).toMatchObject({ modelId: 'tiny-qwen3', engine: 'wllama', host: 'worker', family: 'qwen3', template: 'gguf', contextWindow: 1024, threads: 1 });
  expect(result.before).toBe(false);
  expect(result.after).toBe(true);
  expect(result.gone).toBe(false);
  const download = result.progress.filter((p) => p.phase === 'download');
  expect(download.at(-1)).toEqual({ phase: 'download', loaded: result.size, total: result.size });
  expect(result.progress.at(-1)?.phase).toBe('load');
});

test('a managed round trip under a named tool: the call is what the grammar allowed, and hop 2 reads only the new messages', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, tool, z } = window.tabagent;
    const agent = await createAgent({ model: { gguf: url, contextSize: 1024 }, storage: false });
    const seen: unknown[] = [];
    const weather = tool({
      name: 'get_weather',
      description: 'Weather for a city',
      input: z.object({ city: z.enum(['Paris', 'Tokyo']), metric: z.boolean() }),
      run: (args) => {
        seen.push(args);
        return { temp: 21 };
      },
    });
    const chat = await agent.newChat({ system: 'You are helpful.', tools: [weather] });
    const reply = await chat.send('Weather in Paris?', {
      generation: { thinking: false },
      prepareStep: ({ steps }) => (steps.length === 0 ? { toolChoice: { name: 'get_weather' } } : { toolChoice: 'none', generation: { thinking: false, maxTokens: 6 } }),
    });
    agent.close();
    return { seen, steps: reply.steps.map((s) => ({ calls: s.toolCalls.map((c) => c.name), finish: s.finishReason, usage: s.usage })) };
  }, TINY);
  expect(result.seen).toHaveLength(1);
  expect(['Paris', 'Tokyo']).toContain((result.seen[0] as { city: string }).city);
  expect(typeof (result.seen[0] as { metric: unknown }).metric).toBe('boolean');
  const [first, second] = result.steps;
  expect(first).toMatchObject({ calls: ['get_weather'], finish: 'stop' });
  expect(second).toMatchObject({ calls: [], finish: 'length' });
  // llama.cpp's own counters: hop 2 found hop 1's prompt and reply in its KV cache.
  // llama.cpp's own counters: hop 2 found all of hop 1's prompt in its KV cache and read only the
  // reply and the new messages. (It tokenizes the reply's text again: a real model's tokens mostly
  // come back the same, the crafted model's longest-token picks do not, so part of the reply is read again.)
  expect(first!.usage.cachedTokens).toBe(0);
  expect(second!.usage.cachedTokens).toBeGreaterThanOrEqual(first!.usage.promptTokens);
  expect(second!.usage.promptTokens).toBeLessThanOrEqual(first!.usage.completionTokens + 30);
});

test('a raw tool under toolChoice required comes back to the page, and sendToolResult goes on', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, rawTool } = window.tabagent;
    const agent = await createAgent({ model: { gguf: url, contextSize: 1024 }, storage: false });
    const search = rawTool({ name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { safe: { type: 'boolean' }, kind: { enum: ['news', 'images'] } }, required: ['safe', 'kind'] } });
    const chat = await agent.newChat({ tools: [search], generation: { thinking: false, maxTokens: 60 } });
    const first = await chat.send('Search for tabagent', { toolChoice: 'required' });
    const done = await chat.sendToolResult(first.toolCalls[0]!.id, { hits: ['tabagent.dev'] }, { toolChoice: 'none', generation: { thinking: false, maxTokens: 4 } });
    agent.close();
    return { calls: first.toolCalls, finish: done.finishReason, text: done.text };
  }, TINY);
  expect(result.calls).toHaveLength(1);
  expect(result.calls[0]).toMatchObject({ name: 'search_web', arguments: { safe: expect.any(Boolean), kind: expect.stringMatching(/^(news|images)$/) } });
  expect(result.finish).toBe('length');
});

test('toolChoice none streams text and never a call; structured output is one schema-valid value', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, tool, z } = window.tabagent;
    const agent = await createAgent({ model: { gguf: url, contextSize: 1024 }, storage: false });
    const noop = tool({ name: 'noop', description: 'Does nothing', input: z.object({}), run: () => 'x' });
    const chat = await agent.newChat({ tools: [noop], generation: { thinking: false } });
    const deltas: string[] = [];
    const stream = chat.sendStream('Say something', { toolChoice: 'none', generation: { thinking: false, maxTokens: 8 } });
    let reply;
    for await (const part of stream) {
      if (part.type === 'text') deltas.push(part.text);
      if (part.type === 'final') reply = part.reply;
    }
    const object = await chat.generateObject({ prompt: 'Is it on?', schema: z.object({ on: z.boolean(), level: z.enum(['low', 'high']) }), generation: { thinking: false, maxTokens: 40 } });
    agent.close();
    const turn = chat.messages.find((m) => m.role === 'assistant') as { raw: string };
    return { deltas, text: reply!.text, raw: turn.raw, calls: reply!.toolCalls.length, finish: reply!.finishReason, object: object.object };
  }, TINY);
  expect(result.calls).toBe(0);
  expect(result.finish).toBe('length');
  // The crafted model's free choice is its longest token, 128 spaces: eight of them, and whitespace is no call and no text.
  expect(result.raw).toBe(' '.repeat(8 * 128));
  expect(result.deltas.join('')).toBe(result.text);
  expect(result.object).toEqual({ on: expect.any(Boolean), level: expect.stringMatching(/^(low|high)$/) });
});

test('a reply of nothing but blank space is stopped after 64 such tokens, as cut off, and the chat goes on', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent } = window.tabagent;
    // A window of 2,048 tokens, no maxTokens: the crafted model's free choice (128 spaces) would fill it.
    const agent = await createAgent({ model: { gguf: url, contextSize: 2048 }, storage: false });
    const chat = await agent.newChat({ generation: { thinking: false } });
    const first = await chat.send('Hello');
    const second = await chat.send('Again');
    const raws = chat.messages.filter((m) => m.role === 'assistant').map((m) => (m as { raw: string }).raw);
    agent.close();
    return { finish: [first.finishReason, second.finishReason], text: [first.text, second.text], tokens: [first, second].map((r) => r.steps[0]!.usage.completionTokens), raws };
  }, TINY);
  // Cut off, as a reply at the token limit is; what it wrote is kept as written (the KV cache holds it).
  expect(result.finish).toEqual(['length', 'length']);
  expect(result.text).toEqual(['', '']);
  for (const tokens of result.tokens) expect(tokens).toBeGreaterThanOrEqual(64);
  for (const raw of result.raws) {
    expect(raw).toMatch(/^ +$/);
    // 64 of its 128-space tokens (llama.cpp may hand over a token or two more before the stop lands), far short of the window.
    expect(raw.length / 128).toBeGreaterThanOrEqual(64);
    expect(raw.length / 128).toBeLessThanOrEqual(72);
  }
});

test('an abort keeps what was shown, and the next send works', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, z } = window.tabagent;
    const agent = await createAgent({ model: { gguf: url, contextSize: 1024 } });
    const chat = await agent.newChat({ generation: { thinking: false } });
    const stop = new AbortController();
    // A JSON string is text the crafted model fills with its longest token until stopped.
    const stream = chat.generateObjectStream({ schema: z.object({ note: z.string() }), prompt: 'Talk', signal: stop.signal, generation: { thinking: false, maxTokens: 400 } });
    let shown = '';
    let aborted: unknown;
    try {
      for await (const partial of stream) {
        shown = JSON.stringify(partial);
        if (shown.length > 20) stop.abort();
      }
    } catch (error) {
      aborted = error;
    }
    const next = await chat.send('Again', { generation: { thinking: false, maxTokens: 5 } });
    const messages = chat.messages;
    agent.close();
    const turns = messages.filter((m) => m.role === 'assistant') as Array<{ finishReason: string; text: string }>;
    return { abortedName: (aborted as Error | undefined)?.name, shownLength: shown.length, next: next.finishReason, roles: messages.map((m) => m.role), finish: turns.map((t) => t.finishReason), partial: turns[0]!.text };
  }, TINY);
  expect(result.abortedName).toBe('AbortError');
  expect(result.shownLength).toBeGreaterThan(20);
  expect(result.partial).toMatch(/^\{\s*"note"\s*:\s*"/);
  expect(result.next).toBe('length');
  expect(result.roles).toEqual(['user', 'assistant', 'user', 'assistant']);
  expect(result.finish).toEqual(['abort', 'length']);
});

test('the real window: a message too long is a ContextOverflowError and writes nothing; a long chat is trimmed', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, isContextOverflowError } = window.tabagent;
    const agent = await createAgent({ model: { gguf: url, contextSize: 256 }, storage: false });
    // With the window known; while a model still loads, the message is kept first and refused by the run.
    await agent.ready;
    const chat = await agent.newChat({ generation: { thinking: false, maxTokens: 4 } });
    const overflow = await chat.send('word '.repeat(400)).catch((e: unknown) => e);
    const stored = chat.messages.length;
    const trims: number[] = [];
    chat.on('context-trimmed', (e) => trims.push(e.dropped));
    for (let i = 0; i < 6; i++) await chat.send(`Message ${i}: ${'more words here '.repeat(10)}`);
    const contextWindow = agent.model.contextWindow;
    agent.close();
    return { overflow: isContextOverflowError(overflow), window: contextWindow, stored, trims: trims.length };
  }, TINY);
  expect(result.overflow).toBe(true);
  expect(result.stored).toBe(0);
  expect(result.window).toBe(256);
  expect(result.trims).toBeGreaterThan(0);
});

test('bad files get a ModelLoadError with its reason, and the agent loads a good one after', async ({ page }) => {
  // Seven loads in one test.
  test.setTimeout(180_000);
  const result = await page.evaluate(async (url) => {
    const { createAgent, isModelLoadError } = window.tabagent;
    const agent = await createAgent({ storage: false });
    const notGguf = await agent.load({ gguf: '/index.html' }).catch((e: unknown) => e);
    const bytes = await (await fetch(url)).arrayBuffer();
    const truncated = await agent.load({ gguf: new Blob([bytes.slice(0, bytes.byteLength >> 1)]), id: 'half' }).catch((e: unknown) => e);
    const missing = await agent.load({ gguf: '/models/missing.gguf' }).catch((e: unknown) => e);
    // The same file with one metadata value changed in place (same length, so every offset holds).
    const patched = (find: string, replace: string, skip: number) => {
      const copy = new Uint8Array(bytes.slice(0));
      const text = new TextDecoder('latin1').decode(copy);
      const at = text.indexOf(find) + skip;
      copy.set(new TextEncoder().encode(replace), at);
      return new Blob([copy]);
    };
    // general.architecture's value: key, then a u32 type and a u64 length, then "qwen3".
    const alien = await agent.load({ gguf: patched('general.architecture', 'qwen9', 'general.architecture'.length + 12), id: 'alien' }).catch((e: unknown) => e);
    const noTemplate = await agent.load({ gguf: patched('tokenizer.chat_template', 'tokenizer.chat_templatX', 0), id: 'bare' }).catch((e: unknown) => e);
    // More than the model was trained on (4096): capped, not a KV cache that cannot fit.
    const huge = await agent.load({ gguf: new Blob([bytes]), id: 'huge', contextSize: 100_000_000 }).then((i) => ({ window: i.contextWindow }), (e: unknown) => e);
    const info = await agent.load({ gguf: new Blob([bytes]), id: 'whole', contextSize: 512 });
    agent.close();
    const fields = (e: unknown) => (isModelLoadError(e) ? { reason: e.reason, retryable: e.retryable } : { other: String(e) });
    return { notGguf: fields(notGguf), truncated: fields(truncated), missing: fields(missing), alien: fields(alien), noTemplate: fields(noTemplate), huge: 'window' in (huge as object) ? huge : fields(huge), info };
  }, TINY);
  expect(result.notGguf).toEqual({ reason: expect.stringMatching(/not a GGUF file/), retryable: false });
  expect(result.truncated).toEqual({ reason: expect.stringMatching(/llama\.cpp could not load the file \(.*not within the file bounds/), retryable: false });
  expect(result.missing).toEqual({ reason: expect.stringMatching(/404/), retryable: false });
  expect(result.alien).toEqual({ reason: expect.stringMatching(/cannot run this model's architecture.*qwen9/), retryable: false });
  expect(result.noTemplate).toEqual({ reason: expect.stringMatching(/no chat template/), retryable: false });
  expect(result.huge).toEqual({ window: 4096 });
  expect(result.info).toMatchObject({ modelId: 'whole', engine: 'wllama', contextWindow: 512 });
});

test('a reload mid-answer keeps what was shown, marked interrupted, and the chat goes on on the real engine', async ({ page }) => {
  const id = await page.evaluate(async (url) => {
    const { createAgent, z } = window.tabagent;
    const agent = await createAgent({ model: { gguf: url, contextSize: 4096 } });
    await agent.ready;
    const chat = await agent.newChat({ generation: { thinking: false } });
    let shown = '';
    chat.on('text', (e) => void (shown += e.delta));
    // A string of letters the crafted model goes on writing until the token limit (not its spaces: trailing spaces are not shown yet).
    void chat.generateObject({ schema: z.object({ word: z.string().regex(/^[a-z]+$/) }), prompt: 'Write a long word', generation: { thinking: false, maxTokens: 3000 } }).catch(() => undefined);
    while (shown.length < 2000) await new Promise((resolve) => setTimeout(resolve, 10));
    // Past the draft interval, so what was shown is on disk.
    await new Promise((resolve) => setTimeout(resolve, 400));
    return chat.id;
  }, TINY);
  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready');
  const after = await page.evaluate(
    async ([url, chatId]) => {
      const { createAgent } = window.tabagent;
      const agent = await createAgent({ model: { gguf: url!, contextSize: 4096 } });
      const chat = await agent.openChat(chatId!);
      const last = chat.messages.at(-1)!;
      const interrupted = last.role === 'assistant' ? { finishReason: last.finishReason, length: last.text.length, opens: /^\{\s*"word"\s*:\s*"[a-z]+$/.test(last.text) } : null;
      const again = await chat.regenerate({ toolChoice: 'none', generation: { thinking: false, maxTokens: 4 } });
      agent.close();
      return { interrupted, again: again.finishReason, roles: chat.messages.map((m) => m.role) };
    },
    [TINY, id],
  );
  expect(after.interrupted).toMatchObject({ finishReason: 'abort', opens: true });
  expect(after.interrupted!.length).toBeGreaterThan(2000);
  expect(after).toMatchObject({ again: 'length', roles: ['user', 'assistant'] });
});

test('threads: several where the page is cross-origin isolated, one where it is not, and agent.model says which', async ({ page, browser }) => {
  const ask = (p: typeof page) =>
    p.evaluate(async (url) => {
      const { createAgent } = window.tabagent;
      const agent = await createAgent({ model: { gguf: url, contextSize: 512, threads: 2 }, storage: false });
      const info = await agent.ready;
      const chat = await agent.newChat({ generation: { thinking: false, maxTokens: 3 } });
      const reply = await chat.send('Hi', { toolChoice: 'none' });
      agent.close();
      return { isolated: crossOriginIsolated, threads: info.threads, finish: reply.finishReason };
    }, TINY);
  const isolatedPage = await browser.newPage();
  await isolatedPage.goto('http://127.0.0.1:4181/');
  await expect(isolatedPage.locator('#status')).toHaveText('ready');
  expect(await ask(isolatedPage)).toEqual({ isolated: true, threads: 2, finish: 'length' });
  await isolatedPage.close();
  expect(await ask(page)).toEqual({ isolated: false, threads: 1, finish: 'length' });
});

test('the loop’s rules hold on the real engine: call markup never streams, inform, approvals, the hop cap, a cancelled then a new load', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, tool, z, isToolHopsError } = window.tabagent;
    const agent = await createAgent({ storage: false });
    // A load cancelled mid-way leaves the agent idle; the next one loads.
    const stop = new AbortController();
    const cancelled = agent.load({ gguf: url, contextSize: 1024 }, { signal: stop.signal }).catch((e: unknown) => (e as Error).name);
    stop.abort();
    const states = [await cancelled, agent.modelState];
    await agent.load({ gguf: url, contextSize: 1024 });
    states.push(agent.modelState);

    const runs: string[] = [];
    const flaky = tool({ name: 'flaky', description: 'Fails', input: z.object({ ok: z.boolean() }), onError: 'inform', run: () => { runs.push('flaky'); throw new Error('out of order'); } });
    const pay = tool({ name: 'pay', description: 'Pays', input: z.object({ eur: z.enum(['5', '10']) }), needsApproval: true, run: ({ eur }) => { runs.push(`pay ${eur}`); return 'paid'; } });
    const quiet = { thinking: false, maxTokens: 4 };
    const chat = await agent.newChat({ tools: [flaky, pay], generation: { thinking: false, maxTokens: 80 } });

    // Streamed under a named tool: the call arrives as a call part, never as text.
    const texts: string[] = [];
    const called: string[] = [];
    for await (const part of chat.sendStream('Try it', { prepareStep: ({ steps }) => (steps.length === 0 ? { toolChoice: { name: 'flaky' } } : { toolChoice: 'none', generation: quiet }) })) {
      if (part.type === 'text') texts.push(part.text);
      if (part.type === 'tool-call') called.push(part.call.name);
    }
    const informed = chat.messages.find((m) => m.role === 'tool') as { results: Array<{ content: string }> };

    // A call that needs approval waits for it, then runs once.
    const waiting = await chat.send('Pay', { toolChoice: { name: 'pay' } });
    const approved = await chat.approve(waiting.approvals![0]!.id, { toolChoice: 'none', generation: quiet });

    // A model that calls a tool at every hop is stopped by the cap.
    const looping = await agent.newChat({ tools: [flaky], maxToolHops: 2, generation: { thinking: false, maxTokens: 80 } });
    const capped = await looping.send('Loop', { prepareStep: () => ({ toolChoice: { name: 'flaky' } }) }).catch((e: unknown) => e);
    agent.close();
    return { states, texts: texts.join(''), called, informed: informed.results[0]!.content, approvals: waiting.approvals!.map((c) => c.name), approved: approved.finishReason, runs, capped: isToolHopsError(capped) ? 'ToolHopsError' : String(capped) };
  }, TINY);
  expect(result.states).toEqual(['AbortError', 'idle', 'ready']);
  expect(result.called).toEqual(['flaky']);
  expect(result.texts).not.toContain('<tool_call>');
  expect(result.informed).toBe('{"error":"out of order"}');
  expect(result.approvals).toEqual(['pay']);
  expect(result.approved).toBe('length');
  expect(result.runs.filter((r) => r.startsWith('pay'))).toHaveLength(1);
  expect(result.capped).toBe('ToolHopsError');
});

// Issue 38: chats that take turns on one model. llama.cpp's server runs in wllama with one slot (one
// KV sequence) and, by default, its host prompt cache: when a prompt moves the slot to another chat,
// the chat it held is copied to that cache, and the chat coming back is copied in again, so neither
// reads its old messages again. Several slots on a unified KV cache were measured and gained nothing
// here; where the chats together outgrow the window they lost it (llama.cpp purges an idle slot
// unsaved): see docs/performance.md#two-tabs-on-one-model.
/** The hops of `order` (chat names), each sent in its turn; every chat has a system prompt of `pad` sentences of its own. */
async function takeTurns(page: import('@playwright/test').Page, contextSize: number, pad: number, order: string[]): Promise<Hop[]> {
  const systems = Object.fromEntries(order.map((name) => [name, personaPrompt(name, pad)]));
  return page.evaluate(
    async ({ url, contextSize, systems, order }) => {
      const { createAgent } = window.tabagent;
      const agent = await createAgent({ model: { gguf: url, contextSize }, storage: false });
      const chats = new Map<string, Awaited<ReturnType<typeof agent.newChat>>>();
      const hops: Hop[] = [];
      for (const [i, name] of order.entries()) {
        let chat = chats.get(name);
        if (!chat) {
          chat = await agent.newChat({ system: systems[name], generation: { thinking: false, maxTokens: 4 } });
          chats.set(name, chat);
        }
        const reply = await chat.send(`Question ${i} from ${name}`);
        const { promptTokens, cachedTokens } = reply.steps[0]!.usage;
        hops.push({ chat: name, read: promptTokens, cached: cachedTokens ?? 0, finish: reply.finishReason });
      }
      agent.close();
      return hops;
    },
    { url: TINY, contextSize, systems, order },
  );
}

test('two chats taking turns on one model: each hop reads only its own new messages, as a chat alone does', async ({ page }) => {
  const hops = await takeTurns(page, 1024, 4, ['Ada', 'Ada', 'Bob', 'Ada', 'Bob', 'Ada', 'Bob']);
  test.info().annotations.push(prefillNote(hops));
  expect(hops[0]).toMatchObject({ cached: 0 });
  expectOwnPrefixReused(hops);
});

test('two long chats taking turns that together outgrow the window: no KV-cache failure, and each still reads only its new messages', async ({ page }) => {
  // Each chat about 670 tokens of the 1,024, so the KV cache cannot hold both at once.
  const hops = await takeTurns(page, 1024, 38, ['Ada', 'Bob', 'Ada', 'Bob', 'Ada']);
  test.info().annotations.push(prefillNote(hops));
  expect(hops[0]!.read + hops[1]!.read).toBeGreaterThan(1024);
  expectOwnPrefixReused(hops);
});
