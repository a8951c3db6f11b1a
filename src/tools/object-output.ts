// Structured output: a schema (zod, or plain JSON Schema) becomes the JSON
// Schema the model's grammar is built from, and the reply is read back
// through the same schema, typed. The grammar makes the reply parse; only the
// schema can say it fits (refines, ranges and formats xgrammar cannot express).
import { fromJSONSchema } from 'zod';
import { $ZodAsyncError, registry, safeParse, toJSONSchema, type $ZodType } from 'zod/v4/core';
import { InvalidObjectError, InvalidOptionsError } from '../errors/index.js';
import { isJsonObject, type JsonSchema } from '../shared/json.js';
import type { FinishReason } from '../shared/model.js';
import { jsonProblem } from './encode-result.js';
import { messageOf } from '../errors/message-of.js';

/** A zod schema (its output type is what `read` returns), or a plain JSON Schema (read as `unknown`). */
export type ObjectSchema<T> = $ZodType<T> | JsonSchema;

export interface ObjectOutput<T> {
  /** What the model is constrained with. */
  jsonSchema: JsonSchema;
  /** The finished reply as `T`. Throws InvalidObjectError when it is not JSON that fits; nothing is repaired. */
  read(text: string, finishReason: FinishReason): T;
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
    throw new InvalidOptionsError('schema', `cannot be described as JSON Schema: ${messageOf(cause)}`);
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
    throw new InvalidOptionsError('schema', `cannot be checked: ${messageOf(cause)}`);
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
