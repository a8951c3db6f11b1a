// Every WebLLM prebuilt chat model, by id: which MLC conversation template its
// mlc-chat-config.json names, and which tool-call codec speaks to it. `native`
// says the model was trained on that call format; the others are told the
// Hermes format in their system prompt and held to it by the grammar.
// Facts and their sources: docs/models.md.
import type { ModelFamily } from '../shared/tool-protocol.js';

export interface ModelEntry {
  /** The model without its quantization and context-size suffixes. */
  base: string;
  family: ModelFamily;
  /** The call format is the model's own (else a prompted Hermes format). */
  native: boolean;
  /** Name of the MLC conversation template (see conv-templates.ts). */
  template: string;
  /** The model opens its own <think> block before answering, unless thinking is turned off. */
  thinks: boolean;
}

type Row = [pattern: RegExp, family: ModelFamily, native: boolean, template: string, thinks?: boolean];

// First match wins, so the narrow patterns come first.
const ROWS: Row[] = [
  [/^Llama-3\.[12]-/, 'llama', true, 'llama-3_1'],
  [/^Llama-3-/, 'hermes', false, 'llama-3'],
  [/^Llama-2-/, 'hermes', false, 'llama-2'],
  [/^DeepSeek-R1-Distill-Qwen-/, 'hermes', false, 'deepseek_r1_qwen', true],
  [/^DeepSeek-R1-Distill-Llama-/, 'hermes', false, 'deepseek_r1_llama', true],
  [/^Hermes-2-(?:Pro|Theta)-Llama-3-/, 'hermes', true, 'hermes2_pro_llama3'],
  [/^Hermes-3-Llama-3\.[12]-/, 'hermes', true, 'hermes3_llama-3_1'],
  [/^Hermes-2-Pro-Mistral-/, 'hermes', true, 'open_hermes_mistral'],
  [/^OpenHermes-2\.5-Mistral-/, 'hermes', false, 'open_hermes_mistral'],
  [/^NeuralHermes-2\.5-Mistral-/, 'hermes', false, 'neural_hermes_mistral'],
  [/^WizardMath-/, 'hermes', false, 'wizard_coder_or_math'],
  [/^Phi-4-mini-/, 'phi4-mini', true, 'phi-4'],
  [/^Phi-3\.5-vision-/, 'hermes', false, 'phi-3-vision'],
  [/^Phi-3(?:\.5)?-mini-/, 'hermes', false, 'phi-3'],
  [/^phi-(?:2|1_5)-/, 'hermes', false, 'phi-2'],
  [/^Mistral-7B-Instruct-v0\.3-/, 'mistral', true, 'mistral_default'],
  [/^Mistral-7B-Instruct-v0\.2-/, 'hermes', false, 'mistral_default'],
  [/^Ministral-3-3B-Reasoning-/, 'ministral', true, 'ministral3_reasoning', true],
  [/^Ministral-3-3B-(?:Instruct|Base)-/, 'ministral', true, 'ministral3'],
  [/^SmolLM2-/, 'hermes', false, 'chatml'],
  [/^gemma-4-/, 'gemma4', true, 'gemma_instruction'],
  [/^gemma3-/, 'hermes', false, 'gemma3_instruction'],
  [/^gemma-(?:2-|2b-)/, 'hermes', false, 'gemma_instruction'],
  [/^OLMo-2-/, 'hermes', false, 'olmo2'],
  [/^Qwen3\.5-/, 'qwen3.5', true, 'qwen3_5'],
  [/^Qwen3-/, 'qwen3', true, 'qwen2', true],
  [/^Qwen2\.5-(?:Coder-)?\d/, 'hermes', true, 'qwen2'],
  [/^Qwen2(?:\.5)?-Math-|^Qwen2-/, 'hermes', false, 'qwen2'],
  [/^stablelm-2-zephyr-/, 'hermes', false, 'stablelm-2'],
  [/^RedPajama-INCITE-Chat-/, 'hermes', false, 'redpajama_chat'],
  [/^TinyLlama-1\.1B-Chat-v1\.0-/, 'hermes', false, 'tinyllama_v1_0'],
  [/^TinyLlama-1\.1B-Chat-v0\.4-/, 'hermes', false, 'chatml'],
];

/** What a model id not in the table gets: the Hermes format, told in the prompt, in ChatML. */
const FALLBACK: Omit<ModelEntry, 'base'> = { family: 'hermes', native: false, template: 'chatml', thinks: false };

/** The id without WebLLM's quantization and context-size suffixes: `Qwen3-0.6B-q4f16_1-MLC` → `Qwen3-0.6B`. */
function baseModel(modelId: string): string {
  return modelId.replace(/-q\d+f\d+(?:_\d+)?(?:-.*)?$/, '').replace(/-MLC(?:-.*)?$/, '');
}

/** The table's entry for a model id, and whether the table knows it. */
export function modelEntry(modelId: string): ModelEntry & { known: boolean } {
  const row = ROWS.find(([pattern]) => pattern.test(modelId));
  const base = baseModel(modelId);
  if (!row) return { base, ...FALLBACK, known: false };
  const [, family, native, template, thinks = false] = row;
  return { base, family, native, template, thinks, known: true };
}

/**
 * The family whose own call format goes with a template: one the table uses
 * for models of that family alone, and for at least one natively
 * (`llama-3_1` → llama, `qwen3_5` → qwen3.5, `phi-4` → phi4-mini). Undefined
 * for templates that families share (`qwen2`: Qwen3 and Qwen2.5) or that only
 * models told the Hermes format use (`llama-3`, `chatml`).
 */
export function nativeFamilyOf(template: string): ModelFamily | undefined {
  const rows = ROWS.filter((row) => row[3] === template);
  const families = new Set(rows.map((row) => row[1]));
  return families.size === 1 && rows.some((row) => row[2]) ? rows[0]![1] : undefined;
}

/** The table runs some model of `family` with `template`: the family's calls are known to go in that template. */
export function tablePairs(family: ModelFamily, template: string): boolean {
  return ROWS.some((row) => row[1] === family && row[3] === template);
}
