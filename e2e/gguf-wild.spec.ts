// GGUF models as people find them on a hub, on the real engine (wllama in
// headless Chromium): files generated at test time (scripts/tiny-gguf.mjs)
// with the real tokenizers and chat templates of Qwen3, Llama 3.2 and
// Gemma 3, with templates llama.cpp cannot parse, with none, with a tensor
// missing; served by a file server of the test's own (e2e/support/
// gguf-server.mjs) that answers byte ranges, paces a body, or drops the
// connection halfway, and logs what it was asked, so a test can tell a
// header read from a download.
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tinyGguf } from '../scripts/tiny-gguf.mjs';
import { expect, test } from './fixtures.js';
import { startGgufServer } from './support/gguf-server.mjs';

test.describe.configure({ timeout: 120_000 });

const CHATML = "{% for m in messages %}{{ '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
/** Templates llama.cpp's Jinja refuses at load (wllama 3.13): each failed "llama.cpp could not load the file" before. */
const BROKEN = {
  do: `{% set ns = namespace(xs=[]) %}{% do ns.xs.append(1) %}${CHATML}`,
  percent: `{{ '%s' % 'x' }}${CHATML}`,
  syntax: `{% if %}${CHATML}`,
};
/** Templates that parse but render no conversation in tabagent's Jinja engine either. */
const UNRENDERABLE = {
  raising: `{{ raise_exception('Converted without its template') }}${CHATML}`,
  percent: BROKEN.percent,
};

/** The same file with one metadata text changed in place (same length, so every offset holds). */
function patched(path: string, find: string, replace: string, skip: number): string {
  const bytes = readFileSync(path);
  const at = bytes.indexOf(find) + skip;
  bytes.write(replace, at, 'latin1');
  const out = join(tmpdir(), `tabagent-e2e-${process.pid}-${replace}.gguf`);
  writeFileSync(out, bytes);
  return out;
}

/** The same file with the values after some keys overwritten: `write` gets the offset just past each key. */
function lying(path: string, name: string, edits: Record<string, (bytes: Buffer, at: number) => void>): string {
  const bytes = readFileSync(path);
  for (const [key, write] of Object.entries(edits)) write(bytes, bytes.indexOf(key) + key.length);
  const out = join(tmpdir(), `tabagent-e2e-${process.pid}-${name}.gguf`);
  writeFileSync(out, bytes);
  return out;
}
/** After a key: its value's type (a u32), then the value. */
const u32 = (value: number) => (bytes: Buffer, at: number) => void bytes.writeUInt32LE(value, at + 4);

let server: Awaited<ReturnType<typeof startGgufServer>>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const qwen3 = await tinyGguf();
  server = await startGgufServer({
    'qwen3.gguf': qwen3,
    'gemma3.gguf': await tinyGguf(undefined, { family: 'gemma3' }),
    'llama3.gguf': await tinyGguf(undefined, { family: 'llama3.2' }),
    'do.gguf': await tinyGguf(undefined, { chatTemplate: BROKEN.do }),
    'percent.gguf': await tinyGguf(undefined, { chatTemplate: BROKEN.percent }),
    'syntax.gguf': await tinyGguf(undefined, { chatTemplate: BROKEN.syntax }),
    'syntax-again.gguf': await tinyGguf(undefined, { chatTemplate: BROKEN.syntax }),
    'raising.gguf': await tinyGguf(undefined, { chatTemplate: UNRENDERABLE.raising }),
    'percent-again.gguf': await tinyGguf(undefined, { chatTemplate: UNRENDERABLE.percent }),
    'bare.gguf': await tinyGguf(undefined, { chatTemplate: null }),
    // general.architecture's value: the key, a u32 type and a u64 length, then "qwen3".
    'alien.gguf': patched(qwen3, 'general.architecture', 'qwen9', 'general.architecture'.length + 12),
    'holey.gguf': patched(qwen3, 'output_norm.weight', 'output_norX.weight', 0),
    // After the key: its value's type (u32), then the string's length (u64), or the value.
    'long-template.gguf': lying(qwen3, 'long-template', { 'tokenizer.chat_template': (b, at) => void b.writeBigUInt64LE(256n * 2n ** 20n, at + 4) }),
    'nan-heads.gguf': lying(qwen3, 'nan-heads', {
      'qwen3.attention.head_count': (b, at) => {
        b.writeUInt32LE(6, at); // f32
        b.writeFloatLE(Number.NaN, at + 4);
      },
    }),
    // Each number within its bounds, together a KV cache of 32 GiB a token.
    'wide.gguf': lying(qwen3, 'wide', {
      'qwen3.block_count': u32(512),
      'qwen3.attention.head_count': u32(4096),
      'qwen3.attention.head_count_kv': u32(4096),
      'qwen3.attention.key_length': u32(4096),
      'qwen3.attention.value_length': u32(4096),
    }),
  });
});

test.afterAll(async () => {
  await server?.close();
});

test('Gemma 3’s template writes no call markup: the file loads without a family, a chat without tools runs, one with tools is told to pass family', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, isInvalidOptionsError, rawTool } = window.tabagent;
    const agent = await createAgent({ storage: false });
    const warnings: string[] = [];
    agent.on('model-warning', (w) => warnings.push(w.type));
    const info = await agent.load({ gguf: url, contextSize: 512 });
    const plain = await agent.newChat({ generation: { maxTokens: 3 } });
    const reply = await plain.send('Hi');
    const search = rawTool({ name: 'search', description: 'Search', parameters: { type: 'object', properties: {} } });
    const tooled = await agent.newChat({ tools: [search], generation: { maxTokens: 3 } });
    const refused = await tooled.send('Search').catch((e: unknown) => e);
    agent.close();
    return { family: info.family ?? null, warnings, finish: reply.finishReason, refused: isInvalidOptionsError(refused) ? refused.option : String(refused), stored: tooled.messages.length };
  }, `${server.origin}/gemma3.gguf`);
  // Refused before the message was written: the chat is as it was.
  expect(result).toEqual({ family: null, warnings: ['no-tool-format'], finish: 'length', refused: 'family', stored: 0 });
});

test('Gemma 3’s strict alternation: after a failed send and after cancelToolCalls the chat goes on, and what was stored stays as it was', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, rawTool } = window.tabagent;
    const agent = await createAgent({ storage: false });
    const search = rawTool({ name: 'search', description: 'Search', parameters: { type: 'object', properties: { q: { enum: ['a', 'b'] } }, required: ['q'] } });
    const chat = await agent.newChat({ tools: [search], generation: { maxTokens: 40 } });
    // No model yet: the send fails, the person's message is kept.
    const early = await chat.send('Before the model').catch((e: unknown) => (e as Error).name);
    await agent.load({ gguf: url, contextSize: 1024 }, { family: 'hermes' });
    const errors: string[] = [];
    const attempt = (text: string, options?: Parameters<typeof chat.send>[1]) => chat.send(text, options).catch((e: unknown) => void errors.push(`${(e as Error).name}: ${(e as Error).message}`));
    // user, user: Gemma 3's template raised "Conversation roles must alternate".
    const joined = await attempt('After the model', { toolChoice: 'none', generation: { maxTokens: 3 } });
    const called = await attempt('Search for a', { toolChoice: 'required' });
    await chat.cancelToolCalls();
    // user, model, user (results), user.
    const after = await attempt('Never mind', { toolChoice: 'none', generation: { maxTokens: 3 } });
    agent.close();
    return {
      early,
      errors,
      finishes: [joined?.finishReason, called?.toolCalls.length, after?.finishReason],
      roles: chat.messages.map((m) => m.role),
      users: chat.messages.flatMap((m) => (m.role === 'user' ? [m.content] : [])),
    };
  }, `${server.origin}/gemma3.gguf`);
  expect(result.early).toBe('ModelNotLoadedError');
  expect(result.errors).toEqual([]);
  expect(result.finishes).toEqual(['length', 1, 'length']);
  expect(result.roles).toEqual(['user', 'user', 'assistant', 'user', 'assistant', 'tool', 'user', 'assistant']);
  expect(result.users).toEqual(['Before the model', 'After the model', 'Search for a', 'Never mind']);
});

test('Llama 3.2’s tokenizer and template: its family read from the template, a call under required', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, rawTool } = window.tabagent;
    const agent = await createAgent({ model: { gguf: url, contextSize: 1024 }, storage: false });
    const info = await agent.ready;
    const search = rawTool({ name: 'search', description: 'Search', parameters: { type: 'object', properties: { q: { enum: ['a', 'b'] } }, required: ['q'] } });
    const chat = await agent.newChat({ tools: [search], generation: { maxTokens: 40 } });
    const reply = await chat.send('Search', { toolChoice: 'required' });
    agent.close();
    return { family: info.family, calls: [...new Set(reply.toolCalls.map((c) => c.name))] };
  }, `${server.origin}/llama3.gguf`);
  // Llama's calls are a `;`-separated list: the crafted model may write more than one, each a search.
  expect(result).toEqual({ family: 'llama', calls: ['search'] });
});

test('templates llama.cpp cannot parse: the file loads with the app’s chatTemplate; where nothing can render (or renders no conversation), the template is named, before any download, not retryable', async ({ page }) => {
  const result = await page.evaluate(
    async ([origin, chatml]) => {
      const { createAgent, isModelLoadError } = window.tabagent;
      const agent = await createAgent({ storage: false });
      const loads: Record<string, unknown> = {};
      for (const name of ['do', 'percent', 'syntax']) {
        const info = await agent.load({ gguf: `${origin}/${name}.gguf`, contextSize: 512, chatTemplate: chatml }, { family: 'hermes' });
        const chat = await agent.newChat({ generation: { maxTokens: 3 } });
        loads[name] = { engine: info.engine, finish: (await chat.send('Hi')).finishReason };
      }
      const fields = (e: unknown) => (isModelLoadError(e) ? { reason: e.reason, retryable: e.retryable } : { other: String(e) });
      const unrenderable = await agent.load({ gguf: `${origin}/syntax-again.gguf`, id: 'unrenderable' }).catch(fields);
      const raising = await agent.load({ gguf: `${origin}/raising.gguf`, id: 'raising' }).catch(fields);
      const percent = await agent.load({ gguf: `${origin}/percent-again.gguf`, id: 'percent' }).catch(fields);
      const bare = await agent.load({ gguf: `${origin}/bare.gguf`, id: 'bare' }).catch(fields);
      agent.close();
      return { loads, unrenderable, raising, percent, bare };
    },
    [server.origin, CHATML] as const,
  );
  for (const name of ['do', 'percent', 'syntax']) expect(result.loads[name]).toEqual({ engine: 'wllama', finish: 'length' });
  expect(result.unrenderable).toEqual({ reason: expect.stringMatching(/chat template \(tokenizer\.chat_template\) cannot be rendered.*pass a chatTemplate/), retryable: false });
  // Templates that parse but render nothing: refused with the template's own words, not loaded to fail every send.
  expect(result.raising).toEqual({ reason: expect.stringMatching(/chat template \(tokenizer\.chat_template\) cannot be rendered.*Converted without its template.*pass a chatTemplate/), retryable: false });
  expect(result.percent).toEqual({ reason: expect.stringMatching(/chat template \(tokenizer\.chat_template\) cannot be rendered.*Unknown operator "%".*pass a chatTemplate/), retryable: false });
  expect(result.bare).toEqual({ reason: expect.stringMatching(/no chat template/), retryable: false });
  // Each was refused from the file's header: none was downloaded.
  for (const name of ['bare', 'syntax-again', 'raising', 'percent-again']) expect(server.downloads(`${name}.gguf`)).toBe(0);
});

test('retryable tells the truth: a whole file llama.cpp refuses (an unknown architecture, a tensor missing) is not retryable, stays cached and is not downloaded again', async ({ page }) => {
  const result = await page.evaluate(async (origin) => {
    const { createAgent, isModelCached, deleteCachedModel, isModelLoadError } = window.tabagent;
    const agent = await createAgent({ storage: false });
    const out: Record<string, unknown> = {};
    for (const name of ['alien', 'holey']) {
      const model = { gguf: `${origin}/${name}.gguf`, contextSize: 512 };
      await deleteCachedModel(model);
      const first = await agent.load(model).catch((e: unknown) => e);
      const cached = await isModelCached(model);
      const again = await agent.load(model).catch((e: unknown) => e);
      out[name] = { first: isModelLoadError(first) && { retryable: first.retryable, reason: first.reason }, cached, again: isModelLoadError(again) && again.retryable };
      await deleteCachedModel(model);
    }
    agent.close();
    return out;
  }, server.origin);
  expect(result.alien).toEqual({ first: { retryable: false, reason: expect.stringMatching(/architecture.*qwen9/) }, cached: true, again: false });
  expect(result.holey).toEqual({ first: { retryable: false, reason: expect.stringMatching(/llama\.cpp could not load the file.*output_norm/) }, cached: true, again: false });
  // One download each: the retry read the cached file.
  expect(server.downloads('alien.gguf')).toBe(1);
  expect(server.downloads('holey.gguf')).toBe(1);
});

test('a header that lies is refused before the download: a template claiming 256 MiB of a 22 MB file, a head count of NaN, heads no memory holds', async ({ page }) => {
  const result = await page.evaluate(async (origin) => {
    const { createAgent, isModelLoadError } = window.tabagent;
    const agent = await createAgent({ storage: false });
    const out: Record<string, unknown> = {};
    for (const name of ['long-template', 'nan-heads', 'wide']) {
      const error = await agent.load({ gguf: `${origin}/${name}.gguf`, contextSize: 512 }).catch((e: unknown) => e);
      out[name] = isModelLoadError(error) ? { retryable: error.retryable, reason: error.reason } : String(error);
    }
    agent.close();
    return out;
  }, server.origin);
  expect(result['long-template']).toEqual({ retryable: false, reason: expect.stringMatching(/tokenizer\.chat_template claims a string of 268435456 bytes/) });
  expect(result['nan-heads']).toEqual({ retryable: false, reason: expect.stringMatching(/qwen3\.attention\.head_count is f32 NaN/) });
  expect(result.wide).toEqual({ retryable: false, reason: expect.stringMatching(/does not fit in this browser's WebAssembly memory/) });
  // Only the header was read (a ranged GET), never the file.
  expect(server.downloads('long-template.gguf')).toBe(0);
  expect(server.downloads('nan-heads.gguf')).toBe(0);
  expect(server.downloads('wide.gguf')).toBe(0);
  expect(server.requests.filter((r) => r.name === 'long-template.gguf').length).toBeGreaterThan(0);
});

test('a partial download is never cached: cancelled at 31%, or cut off halfway, isModelCached says no and the part is gone', async ({ page }) => {
  const result = await page.evaluate(async (origin) => {
    const { createAgent, isModelCached, isModelLoadError } = window.tabagent;
    const files = async () => {
      const root = await navigator.storage.getDirectory();
      const cache = await root.getDirectoryHandle('cache', { create: true });
      const names: string[] = [];
      for await (const name of (cache as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
      return names.filter((n) => n.includes('qwen3.gguf'));
    };
    const agent = await createAgent({ storage: false });
    // Paced: 64 KiB every 15 ms, so the load can be cancelled a third of the way.
    const paced = { gguf: `${origin}/qwen3.gguf?pace=15`, contextSize: 512 };
    const stop = new AbortController();
    let at = 0;
    const cancelled = agent
      .load(paced, {
        signal: stop.signal,
        onProgress: (p) => {
          if (p.phase === 'download' && p.progress >= 0.31 && !stop.signal.aborted) {
            at = p.progress;
            stop.abort();
          }
        },
      })
      .catch((e: unknown) => (e as Error).name);
    const cancelledName = await cancelled;
    // The worker ended mid-write: the part is there until someone asks.
    const partBefore = (await files()).length;
    const pacedCached = await isModelCached(paced);
    const pacedLeft = await files();

    const cut = { gguf: `${origin}/qwen3.gguf?cut=0.5`, contextSize: 512 };
    const dropped = await agent.load(cut).catch((e: unknown) => e);
    const cutCached = await isModelCached(cut);
    const cutLeft = await files();
    agent.close();
    return {
      cancelledName,
      at,
      partBefore,
      pacedCached,
      pacedLeft,
      dropped: isModelLoadError(dropped) ? { retryable: dropped.retryable, reason: dropped.reason } : String(dropped),
      cutCached,
      cutLeft,
    };
  }, server.origin);
  expect(result.cancelledName).toBe('AbortError');
  expect(result.at).toBeGreaterThanOrEqual(0.31);
  expect(result.at).toBeLessThan(1);
  expect(result.partBefore).toBe(1);
  expect(result.pacedCached).toBe(false);
  expect(result.pacedLeft).toEqual([]);
  expect(result.dropped).toEqual({ retryable: true, reason: expect.stringMatching(/downloading .*qwen3\.gguf\?cut=0\.5 failed/) });
  expect(result.cutCached).toBe(false);
  expect(result.cutLeft).toEqual([]);
});

test('contextSize: what cannot be a window is refused before anything loads or is stored; a larger one than the model’s is capped, and agent.model says so', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, isInvalidOptionsError } = window.tabagent;
    const wrapped = await createAgent({ model: { gguf: url, contextSize: 2 ** 32 + 512 }, storage: false }).catch((e: unknown) => e);
    const agent = await createAgent({ model: { gguf: url, contextSize: 100_000_000 }, storage: false });
    const info = await agent.ready;
    const chat = await agent.newChat({ generation: { thinking: false, maxTokens: 2 } });
    // 5000 words: more than the 4096 tokens the model has, refused before the message is stored.
    const overflow = await chat.send('word '.repeat(5000)).catch((e: unknown) => (e as Error).name);
    const stored = chat.messages.length;
    agent.close();
    return { wrapped: isInvalidOptionsError(wrapped) && wrapped.option, window: info.contextWindow, overflow, stored };
  }, `${server.origin}/qwen3.gguf`);
  expect(result).toEqual({ wrapped: 'contextSize', window: 4096, overflow: 'ContextOverflowError', stored: 0 });
});
