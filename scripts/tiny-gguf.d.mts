/** Facts about the model tinyGguf() writes, for tests. */
export declare const tinyGgufFacts: Readonly<{
  /** Part of the cache file's name; bumped whenever the file's bytes change. */
  generatorVersion: number;
  architecture: 'qwen3';
  /** Tokens, ids 0..vocabSize-1, added tokens included. */
  vocabSize: number;
  /** <|endoftext|> (not added: add_bos_token is false). */
  bosTokenId: number;
  /** <|im_end|> */
  eosTokenId: number;
  /** <|endoftext|> */
  padTokenId: number;
  /** The model's trained context length (qwen3.context_length). */
  contextLength: number;
  blockCount: number;
  embeddingLength: number;
  /** The token free greedy decoding repeats: the vocabulary's longest (128 spaces). */
  longestToken: Readonly<{ id: number; text: string; bytes: number }>;
  /** Where the chat template comes from: package and file. */
  templateSource: string;
  /** Where the tokenizer comes from: package and file. */
  tokenizerSource: string;
}>;

/** The whole GGUF file, generated in memory (deterministic: the same bytes every run). */
export declare function tinyGgufBytes(options?: TinyGgufOptions): Buffer;

/**
 * Writes the tiny GGUF (`options`: another family's tokenizer and template) at `path` unless the file there is already this
 * generator's (its metadata carries the generator and tokenizer versions), and
 * returns its absolute path. Default: node_modules/.cache/tabagent/
 * tiny-qwen3-g<generator>-tok<tokenizer version>.gguf under the repository.
 * Writes to a temporary name and renames, so concurrent callers never read half a file.
 */
export declare function tinyGguf(path?: string, options?: TinyGgufOptions): Promise<string>;

/** The families whose real tokenizer and chat template the generator can write. */
export type TinyGgufFamily = 'qwen3' | 'llama3.2' | 'gemma3';

export interface TinyGgufOptions {
  /** Whose tokenizer and chat template (default qwen3); the architecture stays the crafted qwen3. */
  family?: TinyGgufFamily;
  /** Another chat template than the tokenizer's, or null for none. */
  chatTemplate?: string | null;
  /** The trained window written in the file (qwen3.context_length; default 4096). */
  contextLength?: number;
}

/** Where each family's tokenizer and template come from: package, and the files in it. */
export declare const tinyGgufSources: Readonly<Record<TinyGgufFamily, Readonly<{ package: string; tokenizer: string; template: string }>>>;

/** mulberry32: a seeded generator of numbers in [0, 1), the same sequence on every run. */
export declare function prng(seed: number): () => number;
