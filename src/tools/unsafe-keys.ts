// Keys that reach into an object's prototype when assigned. JSON.parse makes
// them plain own keys, so a model can write them anywhere in its arguments;
// code that copies or merges those arguments later (a handler, the page) may
// assign them. They are never data: a call that has one is refused, whatever
// its schema says, and no copy the page sees keeps one.
import { isJsonObject } from '../shared/json.js';

export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** What the model reads about such a key (one message, wherever the key is). */
export const UNSAFE_KEY_MESSAGE = 'reserved key: __proto__, constructor and prototype are never accepted';

/** Where the value has such keys, at any depth, as argument paths (`opts.0.__proto__`), in document order. */
export function unsafeKeyPaths(value: unknown, path: readonly string[] = []): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => unsafeKeyPaths(v, [...path, String(i)]));
  if (!isJsonObject(value)) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const here = [...path, key];
    return UNSAFE_KEYS.has(key) ? [here.join('.'), ...unsafeKeyPaths(v, here)] : unsafeKeyPaths(v, here);
  });
}

/** A copy without such keys, at any depth: what the page may see of a refused call. */
export function withoutUnsafeKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUnsafeKeys) as T;
  if (!isJsonObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!UNSAFE_KEYS.has(key)) out[key] = withoutUnsafeKeys(v);
  return out as T;
}
