// One tool of an MCP server as a managed tool: declared with the server's own
// JSON Schema, checked against it (with the coercions every managed tool
// gets) before the call, and run by a call to the server.
import type { CallToolResult, Progress, Tool as McpToolDefinition } from './sdk.js';
import { McpToolError } from '../../errors/index.js';
import { jsonProblem } from '../../tools/encode-result.js';
import type { JsonSchema } from '../../shared/json.js';
import type { ManagedTool, ToolContext } from '../../tools/types.js';
import { jsonSchemaInput } from '../json-schema-input.js';
import { modelReadable, textOf } from './mcp-result.js';
import type { McpCallResult, McpToolInfo, McpToolsOptions } from './mcp-types.js';

export const DEFAULT_TIMEOUT_MS = 60_000;

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onprogress: (progress: Progress) => void;
  /** A task's status message (tasks/get). */
  onstatus: (message: string) => void;
}

/** What a call made as a task keeps with the started call, to wait for the same task after a reload. */
export interface KeptTask {
  mcpTask: { serverUrl: string; taskId: string; progressToken: string };
}

export interface ToolCaller {
  readonly url: string;
  /** The server takes tool calls as tasks (its `tasks.requests.tools.call` capability). */
  readonly takesTasks: boolean;
  call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult>;
  /** Call as a task; `keep` journals the task before the wait. */
  callTask(name: string, args: Record<string, unknown>, options: CallOptions & { keep?: (state: KeptTask) => Promise<void> }): Promise<CallToolResult>;
  /** Wait again for a task a call started before it was cut off. */
  resumeTask(name: string, kept: KeptTask['mcpTask'], options: CallOptions): Promise<CallToolResult>;
}

/** What MCP says when the server does not: a tool may change things (destructiveHint defaults to true) unless it only reads. */
function traitsOf(info: McpToolInfo): { readOnly: boolean; destructive: boolean } {
  const readOnly = info.annotations?.readOnlyHint === true;
  return { readOnly, destructive: !readOnly && info.annotations?.destructiveHint !== false };
}

export function mcpTool(definition: McpToolDefinition, name: string, server: ToolCaller, options: McpToolsOptions): ManagedTool<Record<string, unknown>, unknown> {
  const taskSupport = definition.execution?.taskSupport;
  const info: McpToolInfo = { name: definition.name, title: definition.title, description: definition.description, annotations: definition.annotations, ...(taskSupport ? { taskSupport } : {}) };
  const { asTasks = false } = options;
  const wantsTask = taskSupport === 'required' || (taskSupport === 'optional' && (typeof asTasks === 'function' ? asTasks(info) : asTasks));
  const traits = traitsOf(info);
  const { needsApproval = traits.destructive, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const schema = (definition.inputSchema ?? {}) as Record<string, unknown>;
  const check = jsonSchemaInput(schema);
  const run = async (input: Record<string, unknown>, ctx: ToolContext): Promise<unknown> => {
    const calling: CallOptions = {
      signal: ctx.signal,
      timeoutMs,
      onprogress: ({ progress, total, message }) => ctx.update({ progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) }),
      onstatus: (message) => ctx.update({ message }),
    };
    const kept = keptTask(ctx.resumed);
    // A task is asked for only of a server that takes them (MCP: never otherwise, whatever the tool says).
    const result = kept
      ? await server.resumeTask(definition.name, kept, calling)
      : wantsTask && server.takesTasks
        ? await server.callTask(definition.name, input, { ...calling, ...(ctx.keep ? { keep: ctx.keep as unknown as (state: KeptTask) => Promise<void> } : {}) })
        : await server.call(definition.name, input, calling);
    if (result.isError) throw new McpToolError({ serverUrl: server.url, toolName: definition.name, failure: 'tool', detail: textOf(result) || 'the tool reported an error' });
    // The SDK's result is an McpCallResult (tabagent's loose name for it).
    return options.toModel ? options.toModel(result as McpCallResult, info) : modelReadable(result);
  };
  return Object.freeze({
    kind: 'managed',
    name,
    description: definition.description ?? definition.title ?? '',
    input: check.input,
    ...(check.warnings.length ? { warnings: check.warnings } : {}),
    parameters: parametersOf(schema),
    onError: options.onError ?? 'inform',
    needsApproval: typeof needsApproval === 'function' ? needsApproval(info) : needsApproval,
    timeoutMs,
    ...traits,
    run,
  });
}

function keptTask(resumed: unknown): KeptTask['mcpTask'] | undefined {
  const task = (resumed as Partial<KeptTask> | undefined)?.mcpTask;
  return typeof task?.taskId === 'string' && typeof task.serverUrl === 'string' && typeof task.progressToken === 'string' ? task : undefined;
}

/** The schema as the model is shown it: an object schema, without the `$schema` line. */
function parametersOf(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _, ...rest } = schema;
  // From the wire, so JSON already; kept honest in case a server's SDK hands over more.
  if (jsonProblem(rest)) return { type: 'object' };
  return { ...rest, type: 'object' } as JsonSchema;
}
