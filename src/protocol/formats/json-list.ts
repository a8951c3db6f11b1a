// Call lists written as JSON objects one after another (`{…}; {…}`) or in a
// JSON array (`[{…}, {…}]`): the shared reading for Llama, Mistral and Phi-4-mini.
import { endOfJsonValue, readCallJson } from '../call-json.js';
import type { ReadCalls } from '../types.js';
import type { ParsedCall } from '../../shared/tool-protocol.js';

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

/** What may stand between two calls: one character, with any spacing, or any of several strings. */
type Separator = string | readonly string[];

function separatorAt(text: string, i: number, separator: Separator): number {
  if (typeof separator === 'string') return text[i] === separator ? 1 : 0;
  return separator.find((s) => text.startsWith(s, i))?.length ?? 0;
}

/** Models also write one call object per line, with no separator (vLLM and llama.cpp read them so). */
function nextOnNewLine(text: string, end: number, next: number): boolean {
  return text[next] === '{' && text.slice(end, next).includes('\n');
}

/**
 * Read `{call}` objects from `from`, separated by `separator` (one character,
 * with any spacing), until `close` or the end. Well-formed calls before a
 * broken or unfinished one are kept; `end` is where the reading stopped (the
 * start of a broken or unfinished object).
 */
export function readObjects(text: string, from: number, separator: Separator, close: string, argumentKeys: readonly string[]): ReadCalls & { end: number } {
  const calls: ParsedCall[] = [];
  let i = skipSpace(text, from);
  for (;;) {
    if (close && text.startsWith(close, i)) return { calls, broken: calls.length === 0, end: i + close.length };
    if (text[i] !== '{') return { calls, broken: true, end: i };
    const end = endOfJsonValue(text, i);
    if (end < 0) return { calls, broken: true, end: i };
    const read = readCallJson(text.slice(i, end), argumentKeys);
    if (!read) return { calls, broken: true, end: i };
    calls.push(...read);
    i = skipSpace(text, end);
    const sep = separatorAt(text, i, separator);
    if (sep > 0) {
      i = skipSpace(text, i + sep);
      continue;
    }
    if (nextOnNewLine(text, end, i)) continue;
    if (close) {
      if (text.startsWith(close, i)) return { calls, broken: false, end: i + close.length };
      return { calls, broken: true, end: i };
    }
    return { calls, broken: false, end };
  }
}

/**
 * Where a list of objects that starts at `from` ends, or -1 while it may go
 * on (another call or the closing text may still come). `final`: no more text
 * will come, so whatever is open ends here.
 */
export function endOfObjects(text: string, from: number, separator: Separator, close: string, final: boolean): number {
  let i = skipSpace(text, from);
  for (;;) {
    if (close && text.startsWith(close, i)) return i + close.length;
    // Ended after a separator: only a reply that is over can end a list there.
    if (i >= text.length) return final && !close ? text.length : -1;
    if (text[i] !== '{') return i;
    // An object still open is unfinished, however the reply ended.
    const end = endOfJsonValue(text, i);
    if (end < 0) return -1;
    const j = skipSpace(text, end);
    if (j >= text.length) return final && !close ? end : -1;
    const sep = separatorAt(text, j, separator);
    if (sep > 0) {
      i = skipSpace(text, j + sep);
      continue;
    }
    // A separator still arriving.
    if (!final && typeof separator !== 'string' && separator.some((s) => s.length > 1 && s.startsWith(text.slice(j)))) return -1;
    if (nextOnNewLine(text, end, j)) {
      i = j;
      continue;
    }
    if (close && text.startsWith(close, j)) return j + close.length;
    if (close && close.startsWith(text.slice(j))) return -1;
    return close ? j : end;
  }
}
