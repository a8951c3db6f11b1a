// Structured output: a schema (zod, or plain JSON Schema) becomes the JSON
// Schema the model's grammar is built from, and the reply is read back
// through the same schema, typed. The grammar makes the reply parse; only the
// schema can say it fits (refines, ranges and formats xgrammar cannot express).
// A plain JSON Schema is read by a JSON Schema validator, as a tool's
// arguments are (json-schema-input.ts), not turned into zod: zod's reading of
// it is narrower (an `enum` of objects, integers past 2^53) and looser
// (`minItems` without `items`, a second `allOf` part).
import { safeParseAsync, toJSONSchema, type $ZodType } from 'zod/v4/core';
import { InvalidObjectError, InvalidOptionsError } from '../errors/index.js';
import { isJsonObject, type JsonSchema } from '../shared/json.js';
import type { FinishReason } from '../shared/model.js';
import { jsonProblem } from './encode-result.js';
import { messageOf } from '../errors/message-of.js';
import { lazyImport } from '../shared/lazy-import.js';

/** A zod schema (its output type is what `read` returns), or a plain JSON Schema (read as `unknown`). */
export type ObjectSchema<T> = $ZodType<T> | JsonSchema;

export interface ObjectOutput<T> {
  /** What the model is constrained with. */
  jsonSchema: JsonSchema;
  /** The finished reply as `T`. Rejects with InvalidObjectError when it is not JSON that fits; nothing is repaired. */
  read(text: string, finishReason: FinishReason): Promise<T>;
}

export function objectOutput<T>(schema: ObjectSchema<T>): ObjectOutput<T> {
  const { jsonSchema, check } = isZodSchema(schema) ? fromZod(schema) : fromJson(schema);
  return {
    jsonSchema,
    async read(text, finishReason) {
      let value: unknown;
      try {
        value = JSON.parse(text.trim());
      } catch (error) {
        throw new InvalidObjectError({ text, issues: [{ path: '', message: `not JSON: ${(error as Error).message}` }], finishReason });
      }
      const result = await check(value);
      if ('issues' in result) throw new InvalidObjectError({ text, issues: result.issues, finishReason });
      return result.value as T;
    },
  };
}

function isZodSchema(value: unknown): value is $ZodType {
  // Every zod 4 schema (classic or mini) carries its internals here.
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** The value as the schema reads it, or what is wrong with it. */
type Checked = { value: unknown } | { issues: Array<{ path: string; message: string }> };
type Check = (value: unknown) => Promise<Checked>;

/** The JSON Schema validator, loaded with the first JSON Schema asked for: most pages never ask. */
const loadSchemaCheck = lazyImport(() => import('./json-schema-input.js'));

function fromZod(schema: $ZodType): { jsonSchema: JsonSchema; check: Check } {
  let jsonSchema: JsonSchema;
  try {
    // As for tools: `input` mode describes what the model must write.
    jsonSchema = toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  } catch (cause) {
    throw new InvalidOptionsError('schema', `cannot be described as JSON Schema: ${messageOf(cause)}`);
  }
  const { $schema: _, ...rest } = jsonSchema;
  const check: Check = async (value) => {
    // Read as the reply ends, so an async refine or transform may run.
    const result = await safeParseAsync(schema, value);
    return result.success ? { value: result.data } : { issues: result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) };
  };
  return { jsonSchema: rest, check };
}

function fromJson(schema: unknown): { jsonSchema: JsonSchema; check: Check } {
  if (!isJsonObject(schema)) throw new InvalidOptionsError('schema', 'must be a zod schema or a JSON Schema object');
  // It goes to the worker and into the grammar: a function in it could not cross.
  const problem = jsonProblem(schema);
  if (problem) throw new InvalidOptionsError('schema', `must be JSON data: ${problem}`);
  // Loading from now, while the model answers.
  const checking = loadSchemaCheck().then(({ jsonSchemaInput }) => jsonSchemaInput(schema).check);
  checking.catch(() => undefined);
  return {
    jsonSchema: schema,
    check: async (value) => {
      const result = (await checking)(value);
      return 'issues' in result ? { issues: result.issues.map(({ path, message }) => ({ path: path.join('.'), message })) } : result;
    },
  };
}
