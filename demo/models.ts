// The models the picker offers: small WebLLM models that can call tools, and
// two scripted fake models for browsers without WebGPU (and for the tests).
import type { ModelFamily } from '../src/index.js';

export interface ModelChoice {
  /** Stable across quantisations, so a saved choice survives a GPU change. */
  key: string;
  label: string;
  kind: 'webllm' | 'fake';
  modelId: string;
  family: ModelFamily;
  /** Approximate download, for the picker and the progress bar's speed. */
  downloadMB?: number;
  /** The conversation template a fake model renders with (default: from the model id). */
  template?: string;
}

// Download sizes are rough (the q4f16_1 weights plus the WebGPU library, as
// of late 2025); the progress bar only needs the right order of magnitude to
// turn "41 %" into megabytes and a speed.
const WEBLLM: ReadonlyArray<{ base: string; label: string; family: ModelFamily; mb: number }> = [
  { base: 'Qwen2.5-0.5B-Instruct', label: 'Qwen2.5 0.5B Instruct', family: 'hermes', mb: 290 },
  { base: 'Qwen2.5-1.5B-Instruct', label: 'Qwen2.5 1.5B Instruct', family: 'hermes', mb: 880 },
  { base: 'Qwen2.5-3B-Instruct', label: 'Qwen2.5 3B Instruct', family: 'hermes', mb: 1750 },
  { base: 'Qwen3-0.6B', label: 'Qwen3 0.6B', family: 'qwen3', mb: 350 },
  { base: 'Qwen3-1.7B', label: 'Qwen3 1.7B', family: 'qwen3', mb: 980 },
  { base: 'Llama-3.2-1B-Instruct', label: 'Llama 3.2 1B Instruct', family: 'llama', mb: 700 },
  { base: 'Llama-3.2-3B-Instruct', label: 'Llama 3.2 3B Instruct', family: 'llama', mb: 1800 },
  { base: 'Hermes-3-Llama-3.2-3B', label: 'Hermes 3 (Llama 3.2 3B)', family: 'hermes', mb: 1800 },
];

/** f32 builds keep their scales in 32-bit floats, so they are a little bigger. */
const F32_SIZE_FACTOR = 1.1;

/** The WebLLM models, in the build this GPU can run: f16 needs the adapter's 'shader-f16'. */
export function webllmChoices(f16: boolean): ModelChoice[] {
  return WEBLLM.map(({ base, label, family, mb }) => ({
    key: `webllm:${base}`,
    label,
    kind: 'webllm',
    modelId: `${base}-${f16 ? 'q4f16_1' : 'q4f32_1'}-MLC`,
    family,
    downloadMB: Math.round(f16 ? mb : mb * F32_SIZE_FACTOR),
  }));
}

export const FAKE_CHOICES: readonly ModelChoice[] = [
  { key: 'fake:hermes', label: 'Fake model (Hermes format)', kind: 'fake', modelId: 'fake-model', family: 'hermes' },
  // The Llama format goes with Llama 3.1's template, whose ipython role carries the results.
  { key: 'fake:llama', label: 'Fake model (Llama format)', kind: 'fake', modelId: 'fake-model-llama', family: 'llama', template: 'llama-3_1' },
];

/** Small enough to download on most connections, good enough at calling tools. */
export const DEFAULT_WEBLLM_KEY = 'webllm:Qwen2.5-1.5B-Instruct';
export const DEFAULT_FAKE_KEY = 'fake:hermes';
