export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
/** A JSON Schema document (kept loose: schemas come from zod or are written by hand). */
export type JsonSchema = { [key: string]: unknown };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How deep JSON from outside may nest: call arguments, tool results, an
 * imported chat's values. Far past any real tool's data, and short of the
 * stack every walk over it takes (a few KB of `[` nested thousands deep
 * overflowed them with a RangeError, not a typed error).
 */
export const MAX_JSON_DEPTH = 128;

/** Whether `value` nests objects and arrays deeper than `limit` (walked without recursion, so any depth is safe to ask about). */
export function nestsDeeper(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
