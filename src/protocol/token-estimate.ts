// A token estimate, for the fake model's counts and for fitting chats into a
// model's context window: an estimate of a byte-level BPE tokenizer (Llama
// 3, Qwen, GPT-style). Text is cut the way those tokenizers pre-split it
// (a word with its leading space, up to 3 digits, a run of punctuation, a run
// of whitespace), special markers such as <|im_start|>, <tool_call> and
// [TOOL_CALLS] are one token each, and a long word costs one token per 6
// letters. On English prose and JSON this lands within about 15% of the real
// tokenizers; the fake needs counts that scale like the real ones, not equal
// ones.
const PIECE = /<\|[\w"]{1,30}\|?>|<[\w"]{1,30}\|>|<\/?[a-z_]{2,20}>|\[\/?[A-Z_]{2,20}\]| ?\p{L}+| ?\p{N}{1,3}| ?[^\s\p{L}\p{N}]+|\s+/gu;
const LONG_WORD = 6;
// Every character matches one of the alternatives, so the pieces join back into the text.

export function splitTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const [piece] of text.matchAll(PIECE)) {
    if (piece.length <= LONG_WORD + 1 || !/\p{L}/u.test(piece)) tokens.push(piece);
    else for (let i = 0; i < piece.length; i += LONG_WORD) tokens.push(piece.slice(i, i + LONG_WORD));
  }
  return tokens;
}

export function countTokens(text: string): number {
  return splitTokens(text).length;
}
