// WebLLM's model cache and weight manifests, read from the page without
// WebLLM, the way WebLLM 0.2.86 reads them. With the default cacheBackend
// ('cache', which tabagent uses for prebuilt models), the Cache API cache
// 'webllm/model' holds each model's `tensor-cache.json` and weight shards,
// keyed by their full URLs under the model's URL (cleanModelUrl below).
// hasModelInCache says a model is cached when that cache has the manifest
// and every shard the manifest lists; the shards' `nbytes` add up to the
// download WebLLM reports progress against.

export const MODEL_CACHE = 'webllm/model';
const MANIFEST = 'tensor-cache.json';

/** The Cache API as this module uses it (`globalThis.caches` fits). */
export interface CacheStorageLike {
  has(cacheName: string): Promise<boolean>;
  open(cacheName: string): Promise<CacheLike>;
}
export interface CacheLike {
  keys(): Promise<ReadonlyArray<{ readonly url: string }>>;
  match(url: string): Promise<JsonBody | undefined>;
}
/** `fetch` as this module uses it (`globalThis.fetch` fits). */
export type FetchLike = (url: string, init: { signal?: AbortSignal }) => Promise<JsonBody & { readonly ok: boolean }>;
interface JsonBody {
  json(): Promise<unknown>;
}

export interface CachedModel {
  /** The manifest and every weight shard it lists are cached (WebLLM's hasModelInCache). */
  cached: boolean;
  /** The weights' size in bytes, from the cached manifest. */
  downloadBytes?: number;
}

/** WebLLM's cleanModelUrl: `https://huggingface.co/USER/MODEL` → `https://huggingface.co/USER/MODEL/resolve/main/`. */
export function cleanModelUrl(model: string): string {
  let url = model.endsWith('/') ? model : `${model}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL(url).href;
}

/** Where the model's weight manifest is: `tensor-cache.json` in the model's URL. */
export function manifestUrl(modelUrl: string): string {
  return new URL(MANIFEST, modelUrl).href;
}

/** The weight shards a `tensor-cache.json` lists, or undefined when it is not one. */
function shardsOf(manifest: unknown): { dataPath: string; nbytes: number }[] | undefined {
  const records = (manifest as { records?: unknown } | null)?.records;
  if (!Array.isArray(records)) return undefined;
  const valid = records.every((r: { dataPath?: unknown; nbytes?: unknown } | null) => typeof r?.dataPath === 'string' && Number.isFinite(r.nbytes));
  return valid ? (records as { dataPath: string; nbytes: number }[]) : undefined;
}

/** The weights' size in bytes that a `tensor-cache.json` gives, or undefined when it is not one. */
export function manifestBytes(manifest: unknown): number | undefined {
  return shardsOf(manifest)?.reduce((sum, shard) => sum + shard.nbytes, 0);
}

/**
 * What WebLLM's cache holds of each model URL (as cleanModelUrl makes them).
 * One listing of the cache's keys serves every model; a cache that cannot be
 * read (no Cache API, an opaque origin) holds nothing WebLLM could load.
 */
export async function readModelCache(caches: CacheStorageLike | null | undefined, modelUrls: readonly string[]): Promise<Map<string, CachedModel>> {
  const found = new Map<string, CachedModel>(modelUrls.map((url) => [url, { cached: false }]));
  let cache: CacheLike;
  let keys: Set<string>;
  try {
    // `open` would create the cache: ask first, so listing models leaves no trace.
    if (!caches || !(await caches.has(MODEL_CACHE))) return found;
    cache = await caches.open(MODEL_CACHE);
    keys = new Set((await cache.keys()).map((request) => request.url));
  } catch {
    return found;
  }
  for (const url of found.keys()) {
    const manifest = manifestUrl(url);
    if (!keys.has(manifest)) continue;
    const shards = shardsOf(await cache.match(manifest).then((r) => r?.json()).catch(() => undefined));
    if (!shards) continue;
    found.set(url, {
      cached: shards.every((shard) => keys.has(new URL(shard.dataPath, url).href)),
      downloadBytes: shards.reduce((sum, shard) => sum + shard.nbytes, 0),
    });
  }
  return found;
}

/**
 * Each model's weight size from its manifest on the network, at most
 * `concurrency` requests at a time. A manifest that cannot be fetched or read
 * gives undefined; an abort rejects with the signal's reason.
 */
export async function fetchManifestBytes(fetch: FetchLike, modelUrls: readonly string[], options: { signal?: AbortSignal; concurrency: number }): Promise<Map<string, number | undefined>> {
  const { signal, concurrency } = options;
  const sizes = new Map<string, number | undefined>();
  const queue = [...new Set(modelUrls)];
  const next = async (): Promise<void> => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      signal?.throwIfAborted();
      let bytes: number | undefined;
      try {
        const response = await fetch(manifestUrl(url), { signal });
        bytes = response.ok ? manifestBytes(await response.json()) : undefined;
      } catch {
        signal?.throwIfAborted();
        bytes = undefined;
      }
      sizes.set(url, bytes);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, next));
  return sizes;
}
