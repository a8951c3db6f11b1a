// A GGUF model as an app names one (gguf-name.ts), resolved to what the
// worker loads: a short id from the curated list, or the file itself (by
// URL, or a Blob the person picked). It runs on the CPU with wllama
// (llama.cpp in WebAssembly), in any current browser.
import { InvalidOptionsError } from '../errors/index.js';
import { MAX_GGUF_CONTEXT, type GgufSpec } from '../rpc/worker-protocol.js';
import { GGUF_CATALOG, ggufUrl, type GgufCatalogEntry } from './gguf-catalog.js';
import { ggufModelId, isGgufModel, type GgufModel } from './gguf-name.js';

/** The curated entry for a short id, if it is one. */
export function ggufEntry(id: unknown): GgufCatalogEntry | undefined {
  return typeof id === 'string' ? GGUF_CATALOG.find((entry) => entry.id === id) : undefined;
}

/** What the worker needs to load `model`; InvalidOptionsError unless it names a GGUF model. */
export function ggufSpec(model: unknown, extra: Pick<GgufSpec, 'family' | 'grammar'> = {}): GgufSpec {
  const entry = ggufEntry(model);
  if (entry) return { kind: 'gguf', modelId: entry.id, url: ggufUrl(entry), family: extra.family ?? entry.family, grammar: extra.grammar, thinks: entry.thinks };
  if (typeof model === 'string') throw new InvalidOptionsError('model', `${JSON.stringify(model)} is no curated GGUF id (docs/models.md lists them); { gguf: url | Blob } names any other file`);
  if (!isGgufModel(model)) throw new InvalidOptionsError('model', 'must be a curated GGUF id or { gguf: url | Blob }');
  const { gguf, id, contextSize, threads, thinks, chatTemplate } = model;
  for (const [name, value] of Object.entries({ contextSize, threads })) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw new InvalidOptionsError(name, `must be a positive whole number, not ${JSON.stringify(value)}`);
  }
  if (contextSize !== undefined && contextSize > MAX_GGUF_CONTEXT) throw new InvalidOptionsError('contextSize', `${contextSize} cannot be a window: llama.cpp's n_ctx is at most ${MAX_GGUF_CONTEXT} (a larger one wraps around); ask for what you need, it is capped at the model's trained window`);
  // A curated id with options of the app's own (a larger window, say).
  const curated = ggufEntry(gguf);
  if (curated) return { ...ggufSpec(curated.id, extra), ...(id !== undefined ? { modelId: id } : {}), contextSize, threads, thinks: thinks ?? curated.thinks, chatTemplate };
  const base: Omit<GgufSpec, 'modelId'> = { kind: 'gguf', contextSize, threads, thinks, chatTemplate, ...extra };
  if (gguf instanceof Blob) {
    if (gguf.size === 0) throw new InvalidOptionsError('gguf', 'the file is empty');
    return { ...base, modelId: ggufModelId(model), blob: gguf };
  }
  let url: URL;
  try {
    // Relative to the page (an absolute URL needs no page: in a worker or in tests).
    url = new URL(gguf, globalThis.location?.href);
  } catch {
    throw new InvalidOptionsError('gguf', `must be a URL or a Blob, not ${JSON.stringify(String(gguf))}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InvalidOptionsError('gguf', `must be an http(s) URL, not ${url.protocol}`);
  return { ...base, modelId: ggufModelId(model), url: url.href };
}
