// Tool results become JSON text once, on the page, and are stored as that
// plain JSON (what the chat's messages and an export show). Control tokens are
// escaped where the worker renders the prompt (protocol/escape-control-tokens.ts):
// deterministically, so a reopened chat still replays byte-identical prompts.
import { ToolResultError } from '../errors/index.js';
import { messageOf } from '../errors/message-of.js';
import { MAX_JSON_DEPTH } from '../shared/json.js';

export const DEFAULT_MAX_RESULT_CHARS = 8000;

/** Throws ToolResultError when the value is not plain JSON data. */
export function encodeResult(value: unknown, where: { toolName: string; callId: string }, maxChars = DEFAULT_MAX_RESULT_CHARS): string {
  const problem = jsonProblem(value, new Set(), '');
  if (problem) throw new ToolResultError({ ...where, reason: problem });
  let json: string;
  try {
    json = JSON.stringify(value ?? null);
  } catch (cause) {
    // What the checks above cannot see (a getter that throws, say) is still this error.
    throw new ToolResultError({ ...where, reason: `it cannot be written as JSON: ${messageOf(cause)}` });
  }
  return truncate(json, maxChars);
}

export function encodeError(message: string): string {
  return JSON.stringify({ error: message });
}

function truncate(json: string, maxChars: number): string {
  if (json.length <= maxChars) return json;
  // Never between the two halves of a surrogate pair: a lone half is not text.
  const cut = /[\uD800-\uDBFF]/.test(json[maxChars - 1]!) ? maxChars - 1 : maxChars;
  return `${json.slice(0, cut)}… [truncated: ${json.length - cut} more characters not shown]`;
}

/** Why `value` is not plain JSON data (with where in it), or null. */
export function jsonProblem(value: unknown, seen: Set<object> = new Set(), path = '', depth = 0): string | null {
  const at = path ? ` at ${path}` : '';
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${value} is not a JSON number${at}`;
    case 'bigint':
      return `a BigInt${at} is not JSON (convert it to a string or number)`;
    case 'function':
      return `a function${at} is not JSON`;
    case 'symbol':
      return `a symbol${at} is not JSON`;
  }
  if (value === null) return null;
  const object = value as object;
  if (seen.has(object)) return `it contains a cycle${at}`;
  if (depth >= MAX_JSON_DEPTH) return `it nests deeper than ${MAX_JSON_DEPTH} levels${at}`;
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    // What JSON.stringify would write instead, checked the same way.
    let replaced: unknown;
    try {
      replaced = toJSON.call(object, path.split('.').at(-1) ?? '');
    } catch (cause) {
      return `toJSON threw${at}: ${messageOf(cause)}`;
    }
    if (replaced === object) return null;
    seen.add(object);
    const problem = jsonProblem(replaced, seen, path, depth);
    seen.delete(object);
    return problem;
  }
  const proto = Object.getPrototypeOf(object);
  if (!Array.isArray(object) && proto !== Object.prototype && proto !== null) {
    return `a ${proto?.constructor?.name ?? 'class'} instance${at} is not plain JSON data`;
  }
  seen.add(object);
  for (const [key, child] of Object.entries(object)) {
    const problem = jsonProblem(child, seen, path ? `${path}.${key}` : key, depth + 1);
    if (problem) return problem;
  }
  seen.delete(object);
  return null;
}
