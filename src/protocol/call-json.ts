// Reading the JSON inside a call the way small models write it.
import { jsonrepair } from 'jsonrepair';
import { isJsonObject, type JsonValue } from '../shared/json.js';
import type { ParsedCall } from '../shared/tool-protocol.js';

const INVALID = Symbol('invalid');

/**
 * Strict JSON first, then repaired (trailing commas, single quotes, Python
 * literals, code fences). Only for text known to be complete: jsonrepair would
 * happily "finish" a cut-off call with a guess.
 */
export function parseModelJson(text: string): JsonValue | typeof INVALID {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    try {
      return JSON.parse(jsonrepair(text)) as JsonValue;
    } catch {
      return INVALID;
    }
  }
}

/** Turn parsed call JSON (one call or a list) into calls; null when it is not a call at all. */
export function readCallJson(text: string, argumentKeys: readonly string[]): ParsedCall[] | null {
  const value = parseModelJson(text);
  if (value === INVALID) return null;
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return null;
  const calls: ParsedCall[] = [];
  for (const item of items) {
    if (!isJsonObject(item) || typeof item.name !== 'string' || item.name === '') return null;
    calls.push(withArguments(item.name, argumentKeys.map((k) => item[k]).find((v) => v !== undefined)));
  }
  return calls;
}

function withArguments(name: string, raw: JsonValue | undefined): ParsedCall {
  // No arguments at all means an empty object: a tool without parameters.
  if (raw === undefined || raw === null) return { name, arguments: {} };
  if (isJsonObject(raw)) return { name, arguments: raw };
  if (typeof raw === 'string') {
    // Some models put the arguments object in a JSON string.
    if (raw.trim() === '') return { name, arguments: {} };
    const inner = parseModelJson(raw);
    if (inner !== INVALID && isJsonObject(inner)) return { name, arguments: inner };
  }
  return { name, problem: { truncated: false, detail: 'the arguments are not a JSON object' } };
}

/** Best guess of a tool name in call text that cannot be parsed: the last one named, as earlier calls in a list were read. */
export function guessName(text: string): string {
  return [...text.matchAll(/"name"\s*:\s*"([^"\\]{1,200})"/g)].at(-1)?.[1] ?? '';
}
