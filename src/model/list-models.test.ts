// listModels against stand-ins for the browser: a Cache API laid out the way
// WebLLM 0.2.86 fills it, a fetch that serves manifests, and WebGPU adapters
// with and without shader-f16.
import { describe, expect, it } from 'vitest';
import { isInvalidOptionsError } from '../errors/index.js';
import type { GpuAdapterLike, GpuLike } from './gpu-support.js';
import { listModels, type ListModelsOptions } from './list-models.js';
import { cleanModelUrl, manifestBytes, type CacheLike, type CacheStorageLike } from '../webllm/cache-layout.js';

const QWEN = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
const QWEN_URL = 'https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/';
const LLAMA_1K = 'Llama-3.1-8B-Instruct-q4f32_1-MLC-1k';
const LLAMA = 'Llama-3.1-8B-Instruct-q4f32_1-MLC';
const LLAMA_URL = 'https://huggingface.co/mlc-ai/Llama-3.1-8B-Instruct-q4f32_1-MLC/resolve/main/';

/** A tensor-cache.json as MLC writes it: shards, each with its tensors. */
function manifest(shards: number[]) {
  return {
    metadata: { ParamSize: shards.length, ParamBytes: shards.reduce((a, b) => a + b, 0), BitsPerParam: 4.5 },
    records: shards.map((nbytes, i) => ({ dataPath: `params_shard_${i}.bin`, format: 'raw-shard', nbytes, records: [{ name: `w${i}`, shape: [nbytes / 2], dtype: 'float16', format: 'f32-to-bf16', nbytes, byteOffset: 0 }], md5sum: 'x' })),
  };
}

/** The Cache API in memory: named caches of responses keyed by URL, and which caches were opened. */
function cacheStorage(contents: Record<string, Record<string, unknown>>) {
  const opened: string[] = [];
  const storage: CacheStorageLike = {
    has: async (name) => name in contents,
    open: async (name): Promise<CacheLike> => {
      opened.push(name);
      const entries = (contents[name] ??= {});
      return {
        keys: async () => Object.keys(entries).map((url) => new Request(url)),
        match: async (url) => (url in entries ? new Response(JSON.stringify(entries[url])) : undefined),
      };
    },
  };
  return { storage, opened };
}

/** What WebLLM leaves after downloading a model: its config, its library, its manifest and shards (and tokenizer). */
function downloaded(modelUrl: string, shards: number[], options: { skipShard?: number } = {}) {
  const model: Record<string, unknown> = { [`${modelUrl}tensor-cache.json`]: manifest(shards), [`${modelUrl}tokenizer.json`]: {} };
  shards.forEach((_, i) => {
    if (i !== options.skipShard) model[`${modelUrl}params_shard_${i}.bin`] = 'bytes';
  });
  return { model, config: { [`${modelUrl}mlc-chat-config.json`]: { context_window_size: 4096 } } };
}

function gpu(features: string[], limits: Record<string, number> = {}): GpuLike & { asked: unknown[] } {
  const asked: unknown[] = [];
  const adapter: GpuAdapterLike = { features: new Set(features), limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30, maxComputeWorkgroupStorageSize: 32768, maxStorageBuffersPerShaderStage: 10, ...limits } };
  return { asked, requestAdapter: async (options) => (asked.push(options), adapter) };
}

const quiet: ListModelsOptions = { engines: ['webllm'], caches: null, gpu: false };
const byId = async (options: ListModelsOptions) => new Map((await listModels(options)).map((m) => [m.id, m]));

describe('cached and downloadBytes: WebLLM\'s Cache API cache', () => {
  it('a downloaded model is cached, with its manifest\'s size; its -1k twin shares the weights', async () => {
    const llama = downloaded(LLAMA_URL, [100, 200, 50]);
    const { storage } = cacheStorage({ 'webllm/model': llama.model, 'webllm/config': llama.config });
    const models = await byId({ ...quiet, caches: storage });
    expect(models.get(LLAMA)).toMatchObject({ cached: true, downloadBytes: 350 });
    expect(models.get(LLAMA_1K)).toMatchObject({ cached: true, downloadBytes: 350 });
    expect(models.get(QWEN)).toMatchObject({ cached: false, downloadBytes: undefined });
    expect([...models.values()].filter((m) => m.cached).map((m) => m.id).sort()).toEqual([LLAMA, LLAMA_1K].sort());
  });

  it('a download cut short has its size but is not cached (a shard is missing)', async () => {
    const { storage } = cacheStorage({ 'webllm/model': downloaded(QWEN_URL, [10, 20], { skipShard: 1 }).model });
    expect((await byId({ ...quiet, caches: storage })).get(QWEN)).toMatchObject({ cached: false, downloadBytes: 30 });
  });

  it('only the webllm/model cache counts, under the model\'s resolve/main URL', async () => {
    const other = downloaded(QWEN_URL, [10]).model;
    const noResolve = downloaded('https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/', [10]).model;
    const { storage } = cacheStorage({ tvmjs: other, 'webllm/wasm': other, 'webllm/model': noResolve });
    expect((await byId({ ...quiet, caches: storage })).get(QWEN)).toMatchObject({ cached: false, downloadBytes: undefined });
  });

  it('a manifest that is not one counts as no manifest', async () => {
    const { storage } = cacheStorage({ 'webllm/model': { [`${QWEN_URL}tensor-cache.json`]: { hello: 1 } } });
    expect((await byId({ ...quiet, caches: storage })).get(QWEN)).toMatchObject({ cached: false, downloadBytes: undefined });
  });

  it('does not create WebLLM\'s cache when it is not there, and gets by without a Cache API', async () => {
    const { storage, opened } = cacheStorage({});
    expect((await listModels({ ...quiet, caches: storage })).every((m) => !m.cached)).toBe(true);
    expect(opened).toEqual([]);
    const broken: CacheStorageLike = { has: async () => Promise.reject(new DOMException('opaque origin', 'SecurityError')), open: async () => Promise.reject(new Error('no')) };
    expect((await listModels({ ...quiet, caches: broken })).every((m) => !m.cached)).toBe(true);
  });

  it('cleans model URLs the way WebLLM does', () => {
    expect(cleanModelUrl('https://huggingface.co/mlc-ai/X')).toBe('https://huggingface.co/mlc-ai/X/resolve/main/');
    expect(cleanModelUrl('https://huggingface.co/mlc-ai/X/')).toBe('https://huggingface.co/mlc-ai/X/resolve/main/');
    expect(cleanModelUrl('https://huggingface.co/mlc-ai/X/resolve/v2')).toBe('https://huggingface.co/mlc-ai/X/resolve/v2/');
    expect(manifestBytes(manifest([1, 2, 3]))).toBe(6);
    expect(manifestBytes({ records: [{ dataPath: 'a' }] })).toBeUndefined();
  });
});

describe('fetchSizes: manifests from the network', () => {
  /** A fetch that serves manifests by URL, counting requests in flight. */
  function server(files: Record<string, unknown>, options: { fail?: string[]; delayMs?: number } = {}) {
    const asked: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const fetch: NonNullable<ListModelsOptions['fetch']> = async (url, init) => {
      asked.push(url);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 1));
        init.signal?.throwIfAborted();
        if (options.fail?.includes(url)) throw new TypeError('Failed to fetch');
        return url in files ? new Response(JSON.stringify(files[url])) : new Response('Not found', { status: 404 });
      } finally {
        inFlight--;
      }
    };
    return { fetch, asked, maxInFlight: () => maxInFlight };
  }

  it('fills in downloadBytes from each model\'s tensor-cache.json, a few requests at a time', async () => {
    const web = server({ [`${QWEN_URL}tensor-cache.json`]: manifest([1000, 24]), [`${LLAMA_URL}tensor-cache.json`]: manifest([5000]) });
    const models = await byId({ ...quiet, fetchSizes: true, fetch: web.fetch });
    expect(models.get(QWEN)).toMatchObject({ downloadBytes: 1024, cached: false });
    expect(models.get(LLAMA)?.downloadBytes).toBe(5000);
    expect(models.get(LLAMA_1K)?.downloadBytes).toBe(5000);
    expect(models.get('Qwen3-0.6B-q4f16_1-MLC')?.downloadBytes).toBeUndefined(); // 404
    expect(web.asked.filter((url) => url === `${LLAMA_URL}tensor-cache.json`)).toHaveLength(1);
    expect(web.maxInFlight()).toBeLessThanOrEqual(4);
    expect(web.maxInFlight()).toBeGreaterThan(1);
  });

  it('asks only for the listed models whose size the cache does not give', async () => {
    const { storage } = cacheStorage({ 'webllm/model': downloaded(QWEN_URL, [7]).model });
    const web = server({}, { fail: [`${LLAMA_URL}tensor-cache.json`] });
    const models = await listModels({ ...quiet, caches: storage, ids: [QWEN, LLAMA], fetchSizes: true, fetch: web.fetch });
    expect(models.map((m) => [m.id, m.downloadBytes])).toEqual([[QWEN, 7], [LLAMA, undefined]]);
    expect(web.asked).toEqual([`${LLAMA_URL}tensor-cache.json`]);
  });

  it('rejects with the signal\'s reason when aborted, and stops asking', async () => {
    const web = server({}, { delayMs: 20 });
    const controller = new AbortController();
    const listing = listModels({ ...quiet, fetchSizes: true, fetch: web.fetch, signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(listing).rejects.toMatchObject({ name: 'AbortError' });
    expect(web.asked.length).toBeLessThan(20);
    await expect(listModels({ ...quiet, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('never fetches without fetchSizes', async () => {
    const web = server({});
    await listModels({ ...quiet, fetch: web.fetch });
    expect(web.asked).toEqual([]);
  });
});

describe('runnable: this browser\'s WebGPU', () => {
  it('an adapter without shader-f16 runs the f32 builds only; with it, every build', async () => {
    const without = gpu([]);
    const models = await listModels({ ...quiet, gpu: without });
    expect(without.asked).toEqual([{ powerPreference: 'high-performance' }]);
    for (const m of models) expect(m.runnable, m.id).toBe(!m.needsShaderF16);
    expect(models.find((m) => m.id === 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC')).toMatchObject({ needsShaderF16: true, runnable: false });
    expect(models.find((m) => m.id === QWEN)).toMatchObject({ needsShaderF16: false, runnable: true });
    expect((await listModels({ ...quiet, gpu: gpu(['shader-f16', 'subgroups']) })).every((m) => m.runnable)).toBe(true);
  });

  it('no WebGPU, no adapter, a failed request or an adapter below WebLLM\'s limits: nothing runs', async () => {
    const none = async (g: GpuLike | null) => (await listModels({ ...quiet, gpu: g })).every((m) => m.runnable === false);
    expect(await none(null)).toBe(true);
    expect(await none({ requestAdapter: async () => null })).toBe(true);
    expect(await none({ requestAdapter: async () => Promise.reject(new Error('GPU process crashed')) })).toBe(true);
    expect(await none(gpu(['shader-f16'], { maxStorageBuffersPerShaderStage: 8 }))).toBe(true);
    expect(await none(gpu(['shader-f16'], { maxBufferSize: 2 ** 27 }))).toBe(true);
    // WebLLM falls back to 256 MB buffers and 128 MB bindings where the adapter has less than 1 GB.
    expect(await none(gpu(['shader-f16'], { maxBufferSize: 2 ** 28, maxStorageBufferBindingSize: 2 ** 27 }))).toBe(false);
  });

  it('gpu: false skips the check', async () => {
    expect((await listModels({ ...quiet, gpu: false })).every((m) => m.runnable === undefined)).toBe(true);
  });
});

describe('ids', () => {
  it('lists just those, in that order, and refuses an id WebLLM does not ship', async () => {
    expect((await listModels({ ...quiet, ids: [QWEN, LLAMA_1K] })).map((m) => m.id)).toEqual([QWEN, LLAMA_1K]);
    const error = await listModels({ ...quiet, ids: [QWEN, 'No-Such-Model'] }).catch((e: unknown) => e);
    expect(isInvalidOptionsError(error)).toBe(true);
    expect(error).toMatchObject({ option: 'ids[1]' });
  });
});

describe('a listing', () => {
  it('has what a picker shows', async () => {
    const [model] = await listModels({ ...quiet, ids: ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC'], gpu: gpu(['shader-f16']) });
    expect(model).toEqual({
      id: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
      engine: 'webllm',
      base: 'Qwen2.5-1.5B-Instruct',
      family: 'hermes',
      parameters: 1.5e9,
      quantization: 'q4f16_1',
      contextWindow: 4096,
      vramMB: 1629.75,
      lowResource: true,
      needsShaderF16: true,
      downloadBytes: undefined,
      cached: false,
      runnable: true,
    });
  });
});

describe('GGUF models for the CPU', () => {
  it('are listed after WebLLM’s, with the curated facts, and none is downloaded in a fresh browser', async () => {
    const models = await listModels({ caches: null, gpu: false });
    const gguf = models.filter((m) => m.engine === 'wllama');
    expect(models.slice(-gguf.length)).toEqual(gguf);
    expect(gguf.map((m) => m.id)).toContain('Qwen3-0.6B-Q8_0-GGUF');
    expect(gguf.find((m) => m.id === 'Qwen3-0.6B-Q8_0-GGUF')).toMatchObject({ base: 'Qwen3-0.6B', quantization: 'Q8_0', family: 'qwen3', parameters: 6e8, contextWindow: 4096, needsShaderF16: false, cached: false });
  });

  it('fetchSizes: a HEAD request tells the size the curated list does not know; the others are not asked for', async () => {
    const asked: string[] = [];
    const head = 'https://huggingface.co/bartowski/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf';
    const fetch: ListModelsOptions['fetch'] = async (url, init) => {
      asked.push(`${init.method ?? 'GET'} ${url}`);
      return url === head ? new Response(null, { headers: { 'content-length': '397808192' } }) : new Response('Not found', { status: 404 });
    };
    const ids = ['Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF', 'Qwen3-0.6B-Q8_0-GGUF', 'Llama-3.2-3B-Instruct-Q4_K_M-GGUF'];
    const models = await listModels({ caches: null, gpu: false, ids, fetchSizes: true, fetch });
    expect(models.map((m) => [m.id, m.downloadBytes])).toEqual([
      ['Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF', 397_808_192],
      ['Qwen3-0.6B-Q8_0-GGUF', 639_447_744],
      // The server would not say: unknown, and no error.
      ['Llama-3.2-3B-Instruct-Q4_K_M-GGUF', undefined],
    ]);
    expect(asked.sort()).toEqual(['HEAD https://huggingface.co/bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/main/Llama-3.2-3B-Instruct-Q4_K_M.gguf', `HEAD ${head}`]);
    // Without fetchSizes nothing is asked, and the size stays unknown.
    asked.length = 0;
    expect((await listModels({ caches: null, gpu: false, ids: ids.slice(0, 1), fetch }))[0]?.downloadBytes).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('can be asked for by id beside WebLLM ids, in the order asked', async () => {
    const models = await listModels({ caches: null, gpu: false, ids: ['Qwen3-0.6B-Q8_0-GGUF', QWEN] });
    expect(models.map((m) => [m.id, m.engine])).toEqual([['Qwen3-0.6B-Q8_0-GGUF', 'wllama'], [QWEN, 'webllm']]);
  });
});
