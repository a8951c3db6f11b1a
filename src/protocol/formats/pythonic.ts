// Llama 3.2's pythonic calls: `[get_weather(location="Boston", days=2), get_time()]`.
// Values are Python literals, read with the same repairing JSON reader.
import type { JsonObject } from '../../shared/json.js';
import { PYTHON_LITERALS, endOfGroup, splitTopLevel } from '../bracket-walk.js';
import { parseModelJson } from '../call-json.js';
import type { ReadCalls } from '../types.js';
import type { ParsedCall } from '../../shared/tool-protocol.js';

const LIST_START = /^\[\s*[A-Za-z_][\w.]*\(/;
const MAY_START = /^\[\s*(?:[A-Za-z_][\w.]*)?$/;

export function isPythonicList(rest: string): 'yes' | 'no' | 'maybe' {
  if (LIST_START.test(rest)) return 'yes';
  return MAY_START.test(rest) ? 'maybe' : 'no';
}

/**
 * Index just past the list, -1 while it is open, and also when a bracket
 * closes the wrong group: such a list can never be read, and it runs to the
 * end of the reply (then reported malformed, with none of it shown).
 */
export function endOfPythonic(text: string): number {
  return endOfGroup(text, 0, PYTHON_LITERALS);
}

/** The items of a call list or an argument list: split on commas outside brackets and quotes. */
function items(text: string): string[] {
  return splitTopLevel(text, PYTHON_LITERALS)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** One `name(key=value, …)` call; a call that cannot be read is reported in its place, named if its name shows. */
export function readCall(text: string): ParsedCall {
  const unreadable: ParsedCall = { name: /^([A-Za-z_][\w.]*)\s*\(/.exec(text)?.[1] ?? '', problem: { truncated: false, detail: `could not read ${JSON.stringify(text.slice(0, 200))}` } };
  const match = /^([A-Za-z_][\w.]*)\(([\s\S]*)\)$/.exec(text);
  if (!match) return unreadable;
  const args: JsonObject = {};
  for (const part of items(match[2]!)) {
    const eq = /^([A-Za-z_]\w*)\s*=\s*([\s\S]+)$/.exec(part);
    if (!eq) return unreadable;
    const value = parseModelJson(eq[2]!);
    if (typeof value === 'symbol') return unreadable;
    Object.defineProperty(args, eq[1]!, { value, enumerable: true, writable: true, configurable: true });
  }
  return { name: match[1]!, arguments: args };
}

export function readPythonic(text: string): ReadCalls {
  const end = endOfPythonic(text);
  if (end < 0 || text.slice(end).trim() !== '') return { calls: [], broken: true };
  const calls: ParsedCall[] = [];
  for (const part of items(text.slice(1, end - 1))) {
    calls.push(readCall(part));
  }
  return { calls, broken: calls.length === 0 };
}
