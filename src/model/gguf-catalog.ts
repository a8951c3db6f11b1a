// The curated GGUF builds for the CPU engine (wllama): small instruct models
// that call tools, each a single file under wllama's 2 GB ArrayBuffer limit
// (ngxson/wllama README, "Limitations"). Plain data, so the page can list them
// without loading the engine.
//
// Where the facts come from (each entry's comment names its own):
// - repo, file and exact byte size: ngxson/wllama examples/main/src/config.ts
//   (LIST_MODELS; master 766d28e0, and PR #201/#208 commit 65bb53be for the
//   Phi-4-mini file), or, where wllama names no such file, the repo's Hugging
//   Face file listing (sizes there are rounded, so `downloadBytes` is left out)
//   and the llama.cpp tool-call tests that run that repo
//   (ggml-org/llama.cpp tools/server/tests/unit/test_tool_call.py).
// - parameters and trained context: the model makers' cards and reports
//   (Qwen2.5 GGUF cards; Qwen3 Technical Report Table 1 in QwenLM/Qwen3;
//   meta-llama/llama-models models/llama3_2/MODEL_CARD.md; SmolLM2 and
//   Phi-4-mini cards and config.json). `parameters` is the card's rounded
//   figure (0.49B → 490_000_000).
// - family and thinking: the model's own call format as tabagent reads it
//   (src/protocol/model-table.ts), and QwenLM/Qwen3 README ("By default, Qwen3
//   models will think before response").
// Sizes are the files as wllama recorded them; a repo may re-upload a file.
import type { ModelFamily } from '../shared/tool-protocol.js';

export interface GgufCatalogEntry {
  /** Short id an app passes as `model`. */
  id: string;
  /** Hugging Face repo, `owner/name`. */
  repo: string;
  /** File name in the repo's main branch. */
  file: string;
  /** The tool-call format tabagent speaks to it. */
  family: ModelFamily;
  /** Parameter count, as the model card rounds it. */
  parameters: number;
  /** Tokens the model was trained to attend over (its native context). */
  contextWindow: number;
  /** Size of the file in bytes, where a source gives it exactly. */
  downloadBytes?: number;
  /** The model opens a <think> block by default. */
  thinks: boolean;
}

export const GGUF_CATALOG: readonly GgufCatalogEntry[] = [
  {
    // File: bartowski/Qwen2.5-0.5B-Instruct-GGUF file listing (398 MB, rounded).
    // Params 0.49B: Qwen/Qwen2.5-0.5B-Instruct-GGUF card. Context 32,768: Qwen2.5 GGUF
    // cards ("Full 32,768 tokens") and QwenLM docs ("Qwen2.5 ... maximum of 32K").
    id: 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF',
    repo: 'bartowski/Qwen2.5-0.5B-Instruct-GGUF',
    file: 'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf',
    family: 'hermes',
    parameters: 490_000_000,
    contextWindow: 32_768,
    thinks: false,
  },
  {
    // File and bytes: ngxson/wllama examples/main/src/config.ts (master 766d28e0).
    // Params and context: as Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF.
    id: 'Qwen2.5-0.5B-Instruct-Q8_0-GGUF',
    repo: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF',
    file: 'qwen2.5-0.5b-instruct-q8_0.gguf',
    family: 'hermes',
    parameters: 490_000_000,
    contextWindow: 32_768,
    downloadBytes: 675_710_816,
    thinks: false,
  },
  {
    // File: ggml-org/llama.cpp test_tool_call.py runs bartowski/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M;
    // the repo's file listing names this file (986 MB, rounded). Params 1.54B: Qwen card
    // (as restated by docs.m5stack.com; the GGUF card shows 1.31B non-embedding).
    // Context 32,768: Qwen/Qwen2.5-1.5B-Instruct-GGUF card, config max_position_embeddings.
    id: 'Qwen2.5-1.5B-Instruct-Q4_K_M-GGUF',
    repo: 'bartowski/Qwen2.5-1.5B-Instruct-GGUF',
    file: 'Qwen2.5-1.5B-Instruct-Q4_K_M.gguf',
    family: 'hermes',
    parameters: 1_540_000_000,
    contextWindow: 32_768,
    thinks: false,
  },
  {
    // File and bytes: ngxson/wllama examples/main/src/config.ts (master 766d28e0).
    // Params 0.6B, context 32K: Qwen3 Technical Report Table 1 (QwenLM/Qwen3). Thinks:
    // QwenLM/Qwen3 README. config.json's 40,960 is 32,768 reply + 8,192 prompt (Qwen docs).
    id: 'Qwen3-0.6B-Q8_0-GGUF',
    repo: 'unsloth/Qwen3-0.6B-GGUF',
    file: 'Qwen3-0.6B-Q8_0.gguf',
    family: 'qwen3',
    parameters: 600_000_000,
    contextWindow: 32_768,
    downloadBytes: 639_447_744,
    thinks: true,
  },
  {
    // File and bytes: ngxson/wllama examples/main/src/config.ts (master 766d28e0).
    // Params 1.7B, context 32K: Qwen3 Technical Report Table 1. Thinks: QwenLM/Qwen3 README.
    id: 'Qwen3-1.7B-Q4_K_M-GGUF',
    repo: 'unsloth/Qwen3-1.7B-GGUF',
    file: 'Qwen3-1.7B-Q4_K_M.gguf',
    family: 'qwen3',
    parameters: 1_700_000_000,
    contextWindow: 32_768,
    downloadBytes: 1_107_409_472,
    thinks: true,
  },
  {
    // File and bytes: ngxson/wllama examples/main/src/config.ts (master 766d28e0).
    // Params 1.23B, context 128k: meta-llama/llama-models models/llama3_2/MODEL_CARD.md;
    // 128k = 131,072 (max_position_embeddings in Llama-3.2-1B-Instruct's config.json).
    id: 'Llama-3.2-1B-Instruct-Q4_K_M-GGUF',
    repo: 'hugging-quants/Llama-3.2-1B-Instruct-Q4_K_M-GGUF',
    file: 'llama-3.2-1b-instruct-q4_k_m.gguf',
    family: 'llama',
    parameters: 1_230_000_000,
    contextWindow: 131_072,
    downloadBytes: 807_690_656,
    thinks: false,
  },
  {
    // File: ggml-org/llama.cpp test_tool_call.py runs bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M;
    // the repo's file listing names this file (2.02 GB, rounded: under 2 GiB, but close).
    // Params 3.21B, context 128k (131,072): meta-llama/llama-models MODEL_CARD.md.
    id: 'Llama-3.2-3B-Instruct-Q4_K_M-GGUF',
    repo: 'bartowski/Llama-3.2-3B-Instruct-GGUF',
    file: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    family: 'llama',
    parameters: 3_210_000_000,
    contextWindow: 131_072,
    thinks: false,
  },
  {
    // File and bytes: ngxson/wllama examples/main/src/config.ts (master 766d28e0).
    // Params 1.7B: HuggingFaceTB/SmolLM2-1.7B-Instruct card. Context 8,192: SmolLM2 card
    // as restated by lmstudio-community/SmolLM2-1.7B-Instruct-GGUF ("up to 8192 tokens").
    // Hermes calls are prompted (its template declares no tools: llama.cpp docs/function-calling.md).
    id: 'SmolLM2-1.7B-Instruct-Q4_K_M-GGUF',
    repo: 'ngxson/SmolLM2-1.7B-Instruct-Q4_K_M-GGUF',
    file: 'smollm2-1.7b-instruct-q4_k_m.gguf',
    family: 'hermes',
    parameters: 1_700_000_000,
    contextWindow: 8_192,
    downloadBytes: 1_055_609_536,
    thinks: false,
  },
  {
    // File and bytes: ngxson/wllama examples/main/src/config.ts at 65bb53be (PR #201/#208);
    // Q2_K because Q4_K_M (2.49 GB) is over wllama's 2 GB limit and Q3_K_M (2.12 GB) just under
    // it (unsloth/Phi-4-mini-instruct-GGUF file listing). Params 3.8B, context 128K: Phi-4-mini
    // card; 131,072 = max_position_embeddings in unsloth/Phi-4-mini-instruct config.json.
    id: 'Phi-4-mini-instruct-Q2_K-GGUF',
    repo: 'unsloth/Phi-4-mini-instruct-GGUF',
    file: 'Phi-4-mini-instruct-Q2_K.gguf',
    family: 'phi4-mini',
    parameters: 3_800_000_000,
    contextWindow: 131_072,
    downloadBytes: 1_682_635_744,
    thinks: false,
  },
];

export function ggufUrl(entry: GgufCatalogEntry): string {
  return `https://huggingface.co/${entry.repo}/resolve/main/${entry.file}`;
}
