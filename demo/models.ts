// The models the picker offers. tabagent's listModels tells each model's
// download size, GPU memory, context window, and whether it is downloaded or
// can run here; what it cannot tell is which few call tools well enough for
// this demo, what to call them, and the scripted fakes for browsers without
// WebGPU (and for the tests).
import type { GgufModel, ModelFamily } from '../src/index.js';

export interface WebLLMChoice {
  kind: 'webllm';
  /** Stable across quantizations, so a saved choice survives a GPU change. */
  key: string;
  label: string;
  /** The WebLLM id without its quantization: `${base}-q4f16_1-MLC`, `${base}-q4f32_1-MLC`. */
  base: string;
  note?: string;
}

export interface FakeChoice {
  kind: 'fake';
  key: string;
  label: string;
  note: string;
  modelId: string;
  family: ModelFamily;
  /** The conversation template it renders with (default: from the model id). */
  template?: string;
  /** A pretend download, to see the download screen (progress, cancel) without WebGPU. */
  download?: { ms: number; bytes: number };
}

/** A GGUF model on the CPU (wllama): a curated one, or the person's own file or URL. */
export interface GgufChoice {
  kind: 'gguf';
  key: string;
  label: string;
  note?: string;
  /** What createAgent loads: a curated id, or the person's `{ gguf: url | File }`. */
  model: string | GgufModel;
}

export type ModelChoice = WebLLMChoice | GgufChoice | FakeChoice;

const webllm = (base: string, label: string, note?: string): WebLLMChoice => ({ kind: 'webllm', key: `webllm:${base}`, base, label, note });

export const WEBLLM_CHOICES: readonly WebLLMChoice[] = [
  webllm('Qwen2.5-0.5B-Instruct', 'Qwen2.5 0.5B', 'The quickest download; simple tool calls'),
  webllm('Qwen2.5-1.5B-Instruct', 'Qwen2.5 1.5B', 'A good first choice'),
  webllm('Qwen2.5-3B-Instruct', 'Qwen2.5 3B'),
  webllm('Qwen3-0.6B', 'Qwen3 0.6B', 'Thinks before it answers'),
  webllm('Qwen3-1.7B', 'Qwen3 1.7B', 'Thinks before it answers'),
  webllm('Llama-3.2-1B-Instruct', 'Llama 3.2 1B'),
  webllm('Llama-3.2-3B-Instruct', 'Llama 3.2 3B'),
  webllm('Hermes-3-Llama-3.2-3B', 'Hermes 3 (Llama 3.2 3B)'),
];

// "(CPU)" in the label: the header button names the model alone, and the same
// model may also be downloaded for the GPU.
const gguf = (id: string, label: string, note?: string): GgufChoice => ({ kind: 'gguf', key: `gguf:${id}`, model: id, label: `${label} (CPU)`, note });

/** Curated GGUF builds (src/model/gguf-catalog.ts), smallest first: on a CPU every extra parameter costs time per word. */
export const GGUF_CHOICES: readonly GgufChoice[] = [
  gguf('Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF', 'Qwen2.5 0.5B', 'The quickest; simple tool calls'),
  gguf('Qwen3-0.6B-Q8_0-GGUF', 'Qwen3 0.6B', 'Thinks before it answers'),
  gguf('Llama-3.2-1B-Instruct-Q4_K_M-GGUF', 'Llama 3.2 1B', 'Larger: slower here, steadier answers'),
];

const OWN_URL = 'gguf-url:';

/**
 * The person's GGUF at `url` (the page's ?gguf= parameter), with the context
 * size they asked for (&ctx=), if any. Its key holds both, so a saved choice
 * can be rebuilt on the next visit.
 */
export function ownUrlChoice(url: string, contextSize?: number): GgufChoice {
  // Absolute, so the same file has one key whichever way the address spelled it.
  const href = new URL(url, location.href).href;
  // What wllama can fetch; anything else (javascript:, data:) is not listed at all.
  if (!/^https?:$/.test(new URL(href).protocol)) throw new TypeError(`not an http(s) URL: ${url}`);
  const file = decodeURIComponent(new URL(href).pathname.split('/').pop() || href);
  return { kind: 'gguf', key: `${OWN_URL}${contextSize ?? ''}:${href}`, model: { gguf: href, contextSize }, label: `Your GGUF: ${file}`, note: `From ${href}` };
}

/** A .gguf the person picked from their disk: read in place, nothing downloads. Not remembered: a page cannot reopen a file by itself. */
export function ownFileChoice(file: File): GgufChoice {
  return { kind: 'gguf', key: `gguf-file:${file.name}:${file.size}:${file.lastModified}`, model: { gguf: file }, label: `Your GGUF: ${file.name}`, note: 'From your disk: nothing downloads' };
}

/** The picked file of a GGUF choice, if it is one (it is never downloaded, so never in the cache). */
export function pickedFile(choice: GgufChoice): File | undefined {
  return typeof choice.model === 'object' && choice.model.gguf instanceof File ? choice.model.gguf : undefined;
}

export const FAKE_CHOICES: readonly FakeChoice[] = [
  { kind: 'fake', key: 'fake:hermes', label: 'Scripted fake model', note: 'No GPU, nothing to download; understands a few requests', modelId: 'fake-model', family: 'hermes' },
  // The Llama format goes with Llama 3.1's template, whose ipython role carries the results.
  { kind: 'fake', key: 'fake:llama', label: 'Scripted fake model, Llama format', note: 'The same script, written in Llama 3.1 tool calls', modelId: 'fake-model-llama', family: 'llama', template: 'llama-3_1' },
  {
    kind: 'fake',
    key: 'fake:download',
    label: 'Scripted fake model, pretend download',
    note: 'Shows the download screen: 300 MB in 8 s, nothing really fetched',
    modelId: 'fake-model',
    family: 'hermes',
    download: { ms: 8000, bytes: 300_000_000 },
  },
];

/** What runs when no real model can: the page always works. */
export const FALLBACK: FakeChoice = FAKE_CHOICES[0]!;

/** The builds of a WebLLM choice, best first: f16 is smaller and faster, on GPUs with shader-f16. */
export function buildsOf(choice: WebLLMChoice): [string, string] {
  return [`${choice.base}-q4f16_1-MLC`, `${choice.base}-q4f32_1-MLC`];
}

export function choiceByKey(key: string | null): ModelChoice | undefined {
  if (key?.startsWith(OWN_URL)) {
    // `gguf-url:<context size or nothing>:<url>`: the size has no colon, the URL does.
    const [, size, url] = /^(\d*):(.+)$/.exec(key.slice(OWN_URL.length)) ?? [];
    try {
      return url ? ownUrlChoice(url, size ? Number(size) : undefined) : undefined;
    } catch {
      return undefined;
    }
  }
  return [...WEBLLM_CHOICES, ...GGUF_CHOICES, ...FAKE_CHOICES].find((c) => c.key === key);
}
