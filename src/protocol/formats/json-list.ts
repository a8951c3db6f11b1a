// Call lists written as JSON objects one after another (`{…}; {…}`) or in a
// JSON array (`[{…}, {…}]`): the shared reading for Llama, Mistral and Phi-4-mini.
import { MODEL_JSON, endOfGroup } from '../bracket-walk.js';
import { readCallJson } from '../call-json.js';
import type { ReadCalls } from '../types.js';
import type { ParsedCall } from '../../shared/tool-protocol.js';

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

/** What may stand between two calls (with any spacing around it). */
type Separators = readonly string[];

function separatorAt(text: string, i: number, separators: Separators): number {
  return separators.find((s) => text.startsWith(s, i))?.length ?? 0;
}

/** Models also write one call object per line, with no separator (vLLM and llama.cpp read them so). */
function nextOnNewLine(text: string, end: number, next: number): boolean {
  return text[next] === '{' && text.lastIndexOf('\n', next) >= end;
}

/**
 * Read `{call}` objects from `from`, separated by any of `separators` (with any
 * spacing), until `close` or the end. Well-formed calls before a
 * broken or unfinished one are kept; `end` is where the reading stopped (the
 * start of a broken or unfinished object).
 */
export function readObjects(text: string, from: number, separators: Separators, close: string, argumentKeys: readonly string[]): ReadCalls & { end: number } {
  const calls: ParsedCall[] = [];
  let i = skipSpace(text, from);
  for (;;) {
    if (close && text.startsWith(close, i)) return { calls, broken: calls.length === 0, end: i + close.length };
    if (text[i] !== '{') return { calls, broken: true, end: i };
    const end = endOfGroup(text, i, MODEL_JSON);
    if (end < 0) return { calls, broken: true, end: i };
    const read = readCallJson(text.slice(i, end), argumentKeys);
    if (!read) return { calls, broken: true, end: i };
    calls.push(...read);
    i = skipSpace(text, end);
    const sep = separatorAt(text, i, separators);
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
export function endOfObjects(text: string, from: number, separators: Separators, close: string, final: boolean): number {
  let i = skipSpace(text, from);
  for (;;) {
    if (close && text.startsWith(close, i)) return i + close.length;
    // Ended after a separator: another call may come, or the reply was over
    // (the scanner decides with how it ended).
    if (i >= text.length) return -1;
    if (text[i] !== '{') return i;
    // An object still open is unfinished, however the reply ended.
    const end = endOfGroup(text, i, MODEL_JSON);
    if (end < 0) return -1;
    const j = skipSpace(text, end);
    if (j >= text.length) return final && !close ? end : -1;
    const sep = separatorAt(text, j, separators);
    if (sep > 0) {
      i = skipSpace(text, j + sep);
      continue;
    }
    const rest = text.slice(j);
    // A separator still arriving.
    if (!final && separators.some((s) => s.length > 1 && s.startsWith(rest))) return -1;
    if (nextOnNewLine(text, end, j)) {
      i = j;
      continue;
    }
    if (close && text.startsWith(close, j)) return j + close.length;
    if (close && close.startsWith(rest)) return -1;
    return close ? j : end;
  }
}
