// Structured output: a schema (zod, or plain JSON Schema) becomes the JSON
// Schema the model's grammar is built from, and the reply is read back
// through the same schema, typed. The grammar makes the reply parse; only the
// schema can say it fits (refines, ranges and formats xgrammar cannot express).
import { jsonrepair } from 'jsonrepair';
import { fromJSONSchema } from 'zod';
import { $ZodAsyncError, registry, safeParse, toJSONSchema, type $ZodType } from 'zod/v4/core';
import { InvalidObjectError, InvalidOptionsError } from '../errors/index.js';
import { isJsonObject, type JsonSchema } from '../json.js';
import type { FinishReason } from '../model/types.js';
import { jsonProblem } from '../tools/encode-result.js';

/** A zod schema (its output type is what `read` returns), or a plain JSON Schema (read as `unknown`). */
export type ObjectSchema<T> = $ZodType<T> | JsonSchema;

export interface ObjectOutput<T> {
  /** What the model is constrained with. */
  jsonSchema: JsonSchema;
  /** The finished reply as `T`. Throws InvalidObjectError when it is not JSON that fits; nothing is repaired. */
  read(text: string, finishReason: FinishReason): T;
  /** The best value a reply still streaming shows so far (not validated); undefined until anything parses. */
  partial(text: string): unknown | undefined;
}

export function objectOutput<T>(schema: ObjectSchema<T>): ObjectOutput<T> {
  const { jsonSchema, validator } = isZodSchema(schema) ? fromZod(schema) : fromJson(schema);
  return {
    jsonSchema,
    read(text, finishReason) {
      let value: unknown;
      try {
        value = JSON.parse(text.trim());
      } catch (error) {
        throw new InvalidObjectError({ text, issues: [{ path: '', message: `not JSON: ${(error as Error).message}` }], finishReason });
      }
      const result = check(validator, value);
      if (!result.success) {
        const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
        throw new InvalidObjectError({ text, issues, finishReason });
      }
      return result.data as T;
    },
    partial,
  };
}

function isZodSchema(value: unknown): value is $ZodType {
  // Every zod 4 schema (classic or mini) carries its internals here.
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function fromZod(schema: $ZodType): { jsonSchema: JsonSchema; validator: $ZodType } {
  let jsonSchema: JsonSchema;
  try {
    // As for tools: `input` mode describes what the model must write.
    jsonSchema = toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  } catch (cause) {
    throw new InvalidOptionsError('schema', `cannot be described as JSON Schema: ${(cause as Error)?.message ?? cause}`);
  }
  const { $schema: _, ...rest } = jsonSchema;
  return { jsonSchema: rest, validator: schema };
}

function fromJson(schema: unknown): { jsonSchema: JsonSchema; validator: $ZodType } {
  if (!isJsonObject(schema)) throw new InvalidOptionsError('schema', 'must be a zod schema or a JSON Schema object');
  // It goes to the worker and into the grammar: a function in it could not cross.
  const problem = jsonProblem(schema);
  if (problem) throw new InvalidOptionsError('schema', `must be JSON data: ${problem}`);
  try {
    // A registry of its own: zod's global one would keep every schema with an `$id` alive.
    return { jsonSchema: schema, validator: fromJSONSchema(schema, { registry: registry() }) };
  } catch (cause) {
    throw new InvalidOptionsError('schema', `cannot be checked: ${(cause as Error)?.message ?? cause}`);
  }
}

function check(validator: $ZodType, value: unknown) {
  try {
    return safeParse(validator, value);
  } catch (error) {
    // A reply is read synchronously, as it ends; an async refine cannot run there.
    if (error instanceof $ZodAsyncError) throw new InvalidOptionsError('schema', 'must not have async refinements or transforms');
    throw error;
  }
}

const LITERALS = ['true', 'false', 'null'];

/**
 * jsonrepair closes a cut-off value, but reads a half-written key as a key
 * (`{"ag` → `{"ag": null}`) and a half-written `tru` as a string. So a member
 * whose value has not begun is dropped and a literal is finished first: keys
 * then only ever appear, never change, as the text grows.
 */
function partial(text: string): unknown | undefined {
  let prefix = text.trimStart();
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  let expectKey = false;
  // Where the object member being written starts, until its value begins.
  let member = -1;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (member >= 0) {
      if (c === ':') continue;
      member = -1; // the value begins
    }
    if (c === '"') {
      inString = true;
      if (expectKey) member = i;
      expectKey = false;
    } else if (c === '{' || c === '[') {
      stack.push(c);
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack.at(-1) === '{';
    }
  }
  if (member >= 0) prefix = prefix.slice(0, member);
  else if (!inString) {
    const word = /[a-z]+$/.exec(prefix)?.[0];
    const literal = word && LITERALS.find((l) => l.startsWith(word));
    if (literal) prefix += literal.slice(word.length);
  }
  if (!prefix) return undefined;
  try {
    return JSON.parse(jsonrepair(prefix));
  } catch {
    return undefined;
  }
}
