// The numbers a load uses, as a GGUF's header states them, refused where
// llama.cpp could not hold them or no model could have them: they size the
// KV cache and the context window before anything is downloaded, so a NaN,
// a negative or an absurd value must stop there, not become a window.

/** The facts a load needs, as the file states them (absent where it does not). */
export interface GgufHeader {
  architecture?: string;
  /** The window the model was trained on (`<arch>.context_length`). */
  contextLength?: number;
  blockCount?: number;
  headCount?: number;
  headCountKv?: number;
  embeddingLength?: number;
  keyLength?: number;
  valueLength?: number;
  chatTemplate?: string;
}

/** A kept value and its GGUF type (gguf.md's gguf_metadata_value_type). */
export interface GgufValue {
  type: number;
  value: number | bigint | boolean | string;
}

const TYPE_NAMES = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f32', 'bool', 'string', 'array', 'u64', 'i64', 'f64'];
const U32 = 4;
const STRING = 8;

type Numeric = Exclude<keyof GgufHeader, 'architecture' | 'chatTemplate'>;

/**
 * Each number: its key under the architecture, and the values allowed. The
 * lower bounds: a model has a window, layers and a width; models without
 * attention (Mamba, RWKV) write head counts of 0 (llama.cpp's converters:
 * "unused, but seemingly required when loading"). The upper: block_count is
 * llama.cpp's LLAMA_MAX_LAYERS (src/llama-hparams.h), past which it refuses
 * the file; the others are tabagent's, each far past every published model
 * (trained windows to 10M tokens, Llama 4 Scout; widths to 16,384, Llama 3.1
 * 405B; 128 heads; heads 576 wide, DeepSeek's MLA) and past anything wllama's
 * 4 GiB could run.
 */
const NUMBERS: Record<Numeric, { key: string; min: number; max: number }> = {
  contextLength: { key: 'context_length', min: 1, max: 2 ** 27 },
  blockCount: { key: 'block_count', min: 1, max: 512 },
  embeddingLength: { key: 'embedding_length', min: 1, max: 2 ** 17 },
  headCount: { key: 'attention.head_count', min: 0, max: 2 ** 12 },
  headCountKv: { key: 'attention.head_count_kv', min: 0, max: 2 ** 12 },
  keyLength: { key: 'attention.key_length', min: 1, max: 2 ** 12 },
  valueLength: { key: 'attention.value_length', min: 1, max: 2 ** 12 },
};

/** The header from the kept values; `refuse` throws the load's error. */
export function ggufFacts(kept: ReadonlyMap<string, GgufValue>, refuse: (reason: string) => never): GgufHeader {
  const architecture = stringOf(kept, 'general.architecture', refuse);
  const chatTemplate = stringOf(kept, 'tokenizer.chat_template', refuse);
  const header: GgufHeader = { ...(architecture === undefined ? {} : { architecture }) };
  if (architecture !== undefined) {
    for (const [name, { key: suffix, min, max }] of Object.entries(NUMBERS) as [Numeric, (typeof NUMBERS)[Numeric]][]) {
      const key = `${architecture}.${suffix}`;
      const entry = kept.get(key);
      if (!entry) continue;
      // llama.cpp reads each as a u32 (llama-model-loader.cpp: GKV::get_kv refuses a key of another type).
      if (entry.type !== U32) refuse(`${key} is ${TYPE_NAMES[entry.type]} ${String(entry.value)}; llama.cpp reads it as a u32`);
      const value = entry.value as number;
      if (value < min || value > max) refuse(`${key} is ${value}, outside ${min} to ${max}`);
      header[name] = value;
    }
    const { headCount, headCountKv } = header;
    // Grouped-query attention shares each key-value head among query heads (llama.cpp's n_gqa = n_head / n_head_kv).
    if (headCount && headCountKv && headCountKv > headCount) {
      refuse(`${architecture}.attention.head_count_kv is ${headCountKv}, more than ${architecture}.attention.head_count (${headCount})`);
    }
  }
  return { ...header, ...(chatTemplate === undefined ? {} : { chatTemplate }) };
}

function stringOf(kept: ReadonlyMap<string, GgufValue>, key: string, refuse: (reason: string) => never): string | undefined {
  const entry = kept.get(key);
  if (!entry) return undefined;
  if (entry.type !== STRING) refuse(`${key} is ${TYPE_NAMES[entry.type]} ${String(entry.value)}, not a string`);
  return entry.value as string;
}
