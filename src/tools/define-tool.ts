import { toJSONSchema, type $ZodType, type output } from 'zod/v4/core';
import { InvalidOptionsError } from '../errors/index.js';
import { jsonProblem } from './encode-result.js';
import { isJsonObject, type JsonSchema } from '../shared/json.js';
import type { ErrorPolicy, ManagedTool, RawTool, RetryPolicy, ToolContext, ToolTraits } from './types.js';
import { messageOf } from '../errors/message-of.js';
import { TOOL_NAME } from './tool-names.js';

export interface ToolDefinition<Schema extends $ZodType, Output> extends ToolTraits {
  name: string;
  description: string;
  /** A zod object schema of the arguments. */
  input: Schema;
  run: (input: output<Schema>, context: ToolContext) => Output | Promise<Output>;
  onError?: ErrorPolicy;
  /** Ask the chat's `approve` callback first: always, or when this returns true for the input (default false). */
  needsApproval?: boolean | ((input: output<Schema>) => boolean | Promise<boolean>);
  /** Try again on failure (off by default). */
  retry?: RetryPolicy;
  /** Give up after this long: `ctx.signal` aborts and the call fails with ToolTimeoutError. */
  timeoutMs?: number;
}

/** The error policy and timeout of a tool's calls (or a source's, for all of its tools), checked; `at` goes before the option names. */
export function checkCallOptions(at: string, { onError, timeoutMs }: { onError?: unknown; timeoutMs?: number }): void {
  if (onError !== undefined && onError !== 'inform' && onError !== 'return') throw new InvalidOptionsError(`${at}onError`, `must be 'inform' or 'return', not ${JSON.stringify(onError)}`);
  if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new InvalidOptionsError(`${at}timeoutMs`, 'must be a positive number of milliseconds');
}

/** A managed tool: declared to the model, validated and run by the loop. Types flow from `input` to `run`. */
export function tool<Schema extends $ZodType, Output>(definition: ToolDefinition<Schema, Output>): ManagedTool<output<Schema>, Output> {
  const where = `tool ${JSON.stringify(definition?.name)}`;
  checkCommon(definition, where);
  if (typeof definition.run !== 'function') throw new InvalidOptionsError(`${where}.run`, 'must be a function');
  const policy = definition.onError ?? 'return';
  const { needsApproval = false, retry, timeoutMs } = definition;
  checkCallOptions(`${where}.`, { onError: policy, timeoutMs });
  if (typeof needsApproval !== 'boolean' && typeof needsApproval !== 'function') throw new InvalidOptionsError(`${where}.needsApproval`, 'must be a boolean or a function of the input');
  if (retry !== undefined && (!Number.isInteger(retry?.attempts) || retry.attempts < 1)) throw new InvalidOptionsError(`${where}.retry.attempts`, 'must be an integer ≥ 1');
  return Object.freeze({
    kind: 'managed',
    name: definition.name,
    description: definition.description,
    input: definition.input,
    parameters: schemaOf(definition.input, where),
    onError: policy,
    needsApproval,
    retry,
    timeoutMs,
    readOnly: definition.readOnly,
    destructive: definition.destructive,
    run: definition.run,
  });
}

export interface RawToolDefinition extends ToolTraits {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

/** A raw tool: only declared. Its calls come back in `reply.toolCalls`, to answer with `sendToolResult`. */
export function rawTool(definition: RawToolDefinition): RawTool {
  const where = `rawTool ${JSON.stringify(definition?.name)}`;
  checkCommon(definition, where);
  if (!isJsonObject(definition.parameters) || (definition.parameters.type !== undefined && definition.parameters.type !== 'object')) {
    throw new InvalidOptionsError(`${where}.parameters`, 'must be a JSON Schema object with type "object"');
  }
  // It goes to the worker and into the prompt: a function in it could not cross, and would hang a send.
  const problem = jsonProblem(definition.parameters);
  if (problem) throw new InvalidOptionsError(`${where}.parameters`, `must be JSON data: ${problem}`);
  return Object.freeze({
    kind: 'raw',
    name: definition.name,
    description: definition.description,
    parameters: { type: 'object', ...definition.parameters },
    readOnly: definition.readOnly,
    destructive: definition.destructive,
  });
}

function checkCommon(definition: { name?: unknown; description?: unknown } | undefined, where: string): void {
  if (!definition || typeof definition !== 'object') throw new InvalidOptionsError(where, 'a tool definition object is required');
  if (typeof definition.name !== 'string' || !TOOL_NAME.test(definition.name)) {
    throw new InvalidOptionsError(`${where}.name`, 'must be 1–64 letters, digits, _ or -, starting with a letter or _');
  }
  if (typeof definition.description !== 'string') throw new InvalidOptionsError(`${where}.description`, 'must be a string');
}

function schemaOf(input: $ZodType, where: string): JsonSchema {
  let schema: JsonSchema;
  try {
    // zod's own converter; `input` mode describes what the model must write.
    schema = toJSONSchema(input, { io: 'input' }) as JsonSchema;
  } catch (cause) {
    throw new InvalidOptionsError(`${where}.input`, `cannot be described as JSON Schema: ${messageOf(cause)}`);
  }
  if (schema.type !== 'object') throw new InvalidOptionsError(`${where}.input`, 'must be a zod object schema (z.object({...}))');
  const { $schema: _, ...rest } = schema;
  return closeObjects(rest) as JsonSchema;
}

/**
 * Objects that do not say otherwise get `additionalProperties: false`, so the
 * grammar and the validator both refuse fields the tool does not have.
 */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!isJsonObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = closeObjects(value);
  if (out.type === 'object' && isJsonObject(out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}
