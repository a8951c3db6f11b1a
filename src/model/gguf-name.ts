// Whether a model option names a GGUF model, and what it is called, told
// without the curated list: that list (and resolving a name to its file)
// loads only when a GGUF model is used (gguf-model.ts).
import type { GgufModel } from './gguf-model.js';

export function isGgufModel(model: unknown): model is GgufModel {
  return typeof model === 'object' && model !== null && 'gguf' in model;
}

/** A curated GGUF id ends in `-GGUF`, as WebLLM's ids end in `-MLC`. */
function isGgufId(model: unknown): model is string {
  return typeof model === 'string' && model.endsWith('-GGUF');
}

/** Is `model` a GGUF model (a curated id, or `{ gguf }`)? */
export function namesGguf(model: unknown): boolean {
  return isGgufModel(model) || isGgufId(model);
}

/** The name a GGUF model goes by: its `id`, its curated id, or its file's name without `.gguf`. */
export function ggufModelId(model: string | GgufModel): string {
  if (typeof model === 'string') return model;
  const { gguf, id } = model;
  if (id !== undefined) return id;
  if (isGgufId(gguf)) return gguf;
  if (gguf instanceof Blob) return withoutExtension((gguf as File).name ?? '') ?? 'local';
  try {
    const url = new URL(gguf, globalThis.location?.href);
    return withoutExtension(decodeURIComponent(url.pathname.split('/').pop() ?? '')) ?? url.href;
  } catch {
    return String(gguf);
  }
}

function withoutExtension(file: string): string | undefined {
  return file.replace(/\.gguf$/i, '') || undefined;
}
