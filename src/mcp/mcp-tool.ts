// One tool of an MCP server as a managed tool: declared with the server's own
// JSON Schema, checked against it (with the coercions every managed tool
// gets) before the call, and run by a call to the server.
import type { CallToolResult, Progress, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { McpToolError } from '../errors/index.js';
import { jsonProblem } from '../tools/encode-result.js';
import type { JsonSchema } from '../shared/json.js';
import type { ManagedTool, ToolContext } from '../tools/types.js';
import { jsonSchemaInput } from './json-schema-input.js';
import { modelReadable, textOf } from './mcp-result.js';
import type { McpCallResult, McpToolInfo, McpToolsOptions } from './mcp-tools.js';

export const DEFAULT_TIMEOUT_MS = 60_000;

export interface ToolCaller {
  readonly url: string;
  call(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number; onprogress: (progress: Progress) => void }): Promise<CallToolResult>;
}

/** What MCP says when the server does not: a tool may change things (destructiveHint defaults to true) unless it only reads. */
function traitsOf(info: McpToolInfo): { readOnly: boolean; destructive: boolean } {
  const readOnly = info.annotations?.readOnlyHint === true;
  return { readOnly, destructive: !readOnly && info.annotations?.destructiveHint !== false };
}

export function mcpTool(definition: McpToolDefinition, name: string, server: ToolCaller, options: McpToolsOptions): ManagedTool<Record<string, unknown>, unknown> {
  const info: McpToolInfo = { name: definition.name, title: definition.title, description: definition.description, annotations: definition.annotations };
  const traits = traitsOf(info);
  const { needsApproval = traits.destructive, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const schema = (definition.inputSchema ?? {}) as Record<string, unknown>;
  const check = jsonSchemaInput(schema);
  const run = async (input: Record<string, unknown>, ctx: ToolContext): Promise<unknown> => {
    const result = await server.call(definition.name, input, {
      signal: ctx.signal,
      timeoutMs,
      onprogress: ({ progress, total, message }) => ctx.update({ progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) }),
    });
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

/** The schema as the model is shown it: an object schema, without the `$schema` line. */
function parametersOf(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _, ...rest } = schema;
  // From the wire, so JSON already; kept honest in case a server's SDK hands over more.
  if (jsonProblem(rest)) return { type: 'object' };
  return { ...rest, type: 'object' } as JsonSchema;
}
