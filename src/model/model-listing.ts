// The data a model picker needs, from the page (loaded on demand by list-models.ts): WebLLM's prebuilt chat models
// with their size, needs, and whether this browser has them and can run them.
// No worker starts and WebLLM is not loaded: the list is generated from
// WebLLM's prebuiltAppConfig (prebuilt-models.ts), the cache is read with the
// Cache API, and the GPU is asked for an adapter only.
import { InvalidOptionsError } from '../errors/index.js';
import { modelEntry } from '../protocol/model-table.js';
import type { ModelFamily } from '../shared/tool-protocol.js';
import { browserGpu, gpuFeatures, type GpuLike } from './gpu-support.js';
import { parametersOf, quantizationOf } from './model-id.js';
import { MODEL_URL_BASE, PREBUILT_MODELS, type PrebuiltRow } from './prebuilt-models.js';
import { cleanModelUrl, fetchManifestBytes, readModelCache, type CacheStorageLike } from '../webllm/cache-layout.js';
import { GGUF_CATALOG } from './gguf-catalog.js';
import { ggufFacts } from './gguf-listing.js';
import { ggufEntry } from './gguf-model.js';
import { DEFAULT_GGUF_CONTEXT } from '../rpc/worker-protocol.js';

export interface ModelListing {
  /** The model id, to pass as createAgent's `model`. */
  id: string;
  /** What runs it: WebLLM on WebGPU, or wllama on the CPU (a curated GGUF model). */
  engine: 'webllm' | 'wllama';
  /** The model without its quantization and context-size suffixes, e.g. `Qwen2.5-1.5B-Instruct`. */
  base: string;
  /** The tool-call format tabagent speaks to it. */
  family: ModelFamily;
  /** Parameter count, when the id names it (`1.5B` → 1.5e9; Gemma's `E2B` → 2e9). */
  parameters?: number;
  /** MLC's quantization, from the id, e.g. `q4f16_1`. */
  quantization?: string;
  /** Tokens of prompt and reply together: the record's context_window_size, else 4096; for a GGUF, the window it loads with by default (its trained one, at most 4096). */
  contextWindow: number;
  /** GPU memory it needs, in MB (WebLLM's vram_required_MB). */
  vramMB?: number;
  /** WebLLM says it can run on limited devices, e.g. phones (low_resource_required). */
  lowResource: boolean;
  /** It needs the WebGPU feature shader-f16: every f16 build does, whether or not WebLLM's record says so. */
  needsShaderF16: boolean;
  /** Size of its weights in bytes: from its own manifest (tensor-cache.json), known once it is cached or with `fetchSizes`; a GGUF's file size from the curated list, else (with `fetchSizes`) from the server. */
  downloadBytes?: number;
  /** Its weights are downloaded: in WebLLM's browser cache, as WebLLM's hasModelInCache decides, or a GGUF's whole file in wllama's. */
  cached: boolean;
  /** This browser can run it: WebGPU (with shader-f16 where needed) for WebLLM, undefined with `gpu: false`; WebAssembly memory64 and JSPI for wllama. */
  runnable?: boolean;
}

export interface ListModelsOptions {
  /** Only these model ids, in this order (default: every WebLLM prebuilt chat model, in WebLLM's order, then the curated GGUF models). */
  ids?: readonly string[];
  /** Only models of these engines (default both). */
  engines?: ReadonlyArray<'webllm' | 'wllama'>;
  /**
   * Fetch each listed model's weight manifest (tens of KB each) when it is not
   * cached, to fill in `downloadBytes`; for a curated GGUF whose size the list
   * does not know, a HEAD request (its Content-Length). Narrow the list with
   * `ids` first.
   */
  fetchSizes?: boolean;
  /** Stops `fetchSizes`: the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The Cache API to read (default `globalThis.caches`; null: none). */
  caches?: CacheStorageLike | null;
  /** The fetch for `fetchSizes` (default `globalThis.fetch`). */
  fetch?: ListingFetch;
  /** The WebGPU to ask (default `navigator.gpu`; null: none). `false` skips the check: `runnable` is then undefined. */
  gpu?: GpuLike | null | false;
}

/** `fetch` as listModels uses it: GET for WebLLM's manifests, HEAD for a GGUF's size (`globalThis.fetch` fits). */
export type ListingFetch = (
  url: string,
  init: { signal?: AbortSignal; method?: 'HEAD' },
) => Promise<{ readonly ok: boolean; json(): Promise<unknown>; readonly headers?: { get(name: string): string | null } }>;

/** What createAgent assumes when a model record sets no context window. */
const DEFAULT_CONTEXT_WINDOW = 4096;
/** Manifests fetched at once with `fetchSizes`. */
const FETCH_CONCURRENCY = 4;

/** WebLLM's prebuilt chat models and the curated GGUF ones, with what a model picker needs to know about each, before any download. */
export async function listModels(options: ListModelsOptions = {}): Promise<ModelListing[]> {
  options.signal?.throwIfAborted();
  const engines = new Set(options.engines ?? ['webllm', 'wllama']);
  const ids = options.ids;
  const webllmIds = ids?.filter((id) => !ggufEntry(id));
  const [webllm, gguf] = await Promise.all([
    engines.has('webllm') && (webllmIds === undefined || webllmIds.length > 0) ? listWebLLM({ ...options, ids: webllmIds }) : [],
    engines.has('wllama') ? listGguf(ids, options) : [],
  ]);
  const all = [...webllm, ...gguf];
  if (ids === undefined) return all;
  const byId = new Map(all.map((m) => [m.id, m]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

async function listGguf(ids: readonly string[] | undefined, options: ListModelsOptions): Promise<ModelListing[]> {
  const entries = ids === undefined ? GGUF_CATALOG : GGUF_CATALOG.filter((entry) => ids.includes(entry.id));
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  const fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  return Promise.all(
    entries.map(async (entry): Promise<ModelListing> => {
      const { id, base, quantization, url, cached, runnable } = await ggufFacts(entry, storage);
      const downloadBytes = entry.downloadBytes ?? (options.fetchSizes ? await headBytes(fetch, url, options.signal) : undefined);
      // The window it is loaded with unless the app asks for more ({ gguf: id, contextSize }): KV-cache memory grows with it.
      const contextWindow = Math.min(entry.contextWindow, DEFAULT_GGUF_CONTEXT);
      return { id, engine: 'wllama', base, family: entry.family, parameters: entry.parameters, quantization, contextWindow, lowResource: true, needsShaderF16: false, downloadBytes, cached, runnable };
    }),
  );
}

/**
 * A file's size as its server says it: a HEAD request's Content-Length
 * (readable across origins, a CORS-safelisted header; Hugging Face's
 * redirect to its CDN is followed). A server that will not say leaves it unknown.
 */
async function headBytes(fetch: ListingFetch, url: string, signal: AbortSignal | undefined): Promise<number | undefined> {
  try {
    const response = await fetch(url, { method: 'HEAD', signal });
    const bytes = Number(response.headers?.get('content-length'));
    return response.ok && bytes > 0 ? bytes : undefined;
  } catch {
    signal?.throwIfAborted();
    return undefined;
  }
}

async function listWebLLM(options: ListModelsOptions): Promise<ModelListing[]> {
  const { signal } = options;
  const rows = selectRows(options.ids);
  const urls = rows.map(modelUrlOf);
  const [cache, features] = await Promise.all([
    readModelCache(options.caches === undefined ? globalThis.caches : options.caches, urls),
    options.gpu === false ? undefined : gpuFeatures(options.gpu === undefined ? browserGpu() : options.gpu),
  ]);
  let fetched = new Map<string, number | undefined>();
  if (options.fetchSizes) {
    const unknown = urls.filter((url) => cache.get(url)?.downloadBytes === undefined);
    fetched = await fetchManifestBytes(options.fetch ?? ((url, init) => globalThis.fetch(url, init)), unknown, { signal, concurrency: FETCH_CONCURRENCY });
  }
  return rows.map((row, i) => {
    const [id, vramMB, flags, contextWindow] = row;
    const url = urls[i]!;
    const { base, family } = modelEntry(id);
    const quantization = quantizationOf(id);
    const needsShaderF16 = (flags & 2) !== 0 || /f16/.test(quantization ?? '');
    const cached = cache.get(url);
    return {
      id,
      engine: 'webllm',
      base,
      family,
      parameters: parametersOf(id),
      quantization,
      contextWindow: contextWindow || DEFAULT_CONTEXT_WINDOW,
      vramMB: vramMB || undefined,
      lowResource: (flags & 1) !== 0,
      needsShaderF16,
      downloadBytes: cached?.downloadBytes ?? fetched.get(url),
      cached: cached?.cached ?? false,
      runnable: features === undefined ? undefined : features !== null && (!needsShaderF16 || features.has('shader-f16')),
    };
  });
}

function selectRows(ids: readonly string[] | undefined): readonly PrebuiltRow[] {
  if (ids === undefined) return PREBUILT_MODELS;
  const byId = new Map(PREBUILT_MODELS.map((row) => [row[0], row]));
  return ids.map((id, i) => {
    const row = byId.get(id);
    if (!row) throw new InvalidOptionsError(`ids[${i}]`, `${JSON.stringify(id)} is neither a WebLLM prebuilt chat model id nor a curated GGUF id`);
    return row;
  });
}

/** The model's URL as WebLLM keys its cache: the record's `model`, cleaned the way WebLLM cleans it. */
function modelUrlOf([id, , , , model = id]: PrebuiltRow): string {
  return cleanModelUrl(/^https?:/.test(model) ? model : MODEL_URL_BASE + model);
}
