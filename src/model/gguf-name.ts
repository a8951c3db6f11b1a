// What a GGUF model option is, whether an option names one, and what it is
// called, told without the curated list: that list (and resolving a name to
// its file) loads only when a GGUF model is used (gguf-model.ts).

/** A GGUF model for the CPU engine (wllama). */
export interface GgufModel {
  /** The file: a curated id, its URL (a Hugging Face `resolve` URL, or any URL the page may fetch), or a Blob/File. */
  gguf: string | URL | Blob;
  /** Its name in `agent.model` and events; default: the file's name. */
  id?: string;
  /**
   * Tokens the KV cache holds (prompt and reply); default: the model's trained
   * window, at most 4096. Capped at the trained window and at what fits in
   * WebAssembly's memory beside the weights; `agent.model.contextWindow` says
   * what was used. Memory grows with it.
   */
  contextSize?: number;
  /** CPU threads; default: half the cores where the page is cross-origin isolated (COOP/COEP), else 1. */
  threads?: number;
  /** The model writes a think block unless thinking is off (default: Qwen3's family does). */
  thinks?: boolean;
  /** A Jinja chat template in place of the GGUF's own `tokenizer.chat_template`. */
  chatTemplate?: string;
}


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
