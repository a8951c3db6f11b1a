// Tool results are data inside the family's result markup, and a fetched page
// may hold any family's turn boundary or call opener (`<end_of_turn>`,
// `[/TOOL_RESULTS][TOOL_CALLS]`, `<｜User｜>`, `<tool_response|>`…). The
// page stores a result as the plain JSON its handler returned; the worker
// escapes it here, where each prompt is rendered (render-request.ts for
// WebLLM and the fake, worker/template-prompt.ts for wllama), so every path
// into a prompt is covered, whatever wrote the text (this version, an older
// one, an imported chat file), and the token list stays out of the page.
import type { EncodedToolResult } from '../shared/tool-protocol.js';
import { CONTROL_TOKEN_PATTERNS, CONTROL_TOKENS } from './control-tokens.js';

/**
 * Every control token starts with `<` or `[`, and inside a JSON string any
 * character may be written as a \u escape, which JSON.parse reads back as
 * the same character: so the first character of every token is escaped, and
 * the text the model reads spells none. One compiled regex, one pass; the
 * tokens come from the real tokenizers and templates (control-tokens.ts).
 * Deterministic, so a stored chat renders the same prompt on every request
 * and after a reload; escaping escaped text changes nothing, so results an
 * older version stored escaped render as they did.
 */
function escapeControlTokens(text: string): string {
  return text.replace(TOKEN_START, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A turn's results as the model reads them. */
export function escapeResults(results: readonly EncodedToolResult[]): EncodedToolResult[] {
  return results.map((r) => ({ ...r, content: escapeControlTokens(r.content) }));
}

/**
 * Matches the first character of every control token, with a lookahead for
 * the rest: a token that starts inside another (`<<SYS>>`) is broken too.
 */
const TOKEN_START = tokenStarts();

function tokenStarts(): RegExp {
  const rests = new Map<string, string[]>();
  const add = (first: string, rest: string) => rests.set(first, [...(rests.get(first) ?? []), rest]);
  for (const token of CONTROL_TOKENS) add(token[0]!, escapeRegex(token.slice(1)));
  for (const pattern of CONTROL_TOKEN_PATTERNS) {
    const escaped = pattern.startsWith('\\');
    add(pattern[escaped ? 1 : 0]!, pattern.slice(escaped ? 2 : 1));
  }
  return new RegExp([...rests].map(([first, rest]) => `${escapeRegex(first)}(?=${rest.join('|')})`).join('|'), 'g');
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
