// One tool of an MCP server as a managed tool: built from the server's JSON
// Schema as every source's tool is (sources/json-schema-tool.ts), run by a call to
// the server, as a task where the tool and the server take them.
import type { CallToolResult, Progress, Tool as McpToolDefinition } from './sdk.js';
import { McpToolError } from '../../errors/index.js';
import type { ManagedTool, ToolContext } from '../../tools/types.js';
import { jsonSchemaTool, traitsOf } from '../json-schema-tool.js';
import { modelReadable, textOf } from './mcp-result.js';
import type { McpCallResult, McpToolInfo, McpToolsOptions } from './mcp-types.js';

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

/** A tool as the server describes it, for the app's `filter` and `needsApproval`. */
export function mcpToolInfo(definition: McpToolDefinition): McpToolInfo {
  const taskSupport = definition.execution?.taskSupport;
  return { name: definition.name, title: definition.title, description: definition.description, annotations: definition.annotations, ...(taskSupport ? { taskSupport } : {}) };
}

export function mcpTool(definition: McpToolDefinition, name: string, server: ToolCaller, options: McpToolsOptions): ManagedTool<Record<string, unknown>, unknown> {
  const info = mcpToolInfo(definition);
  const { asTasks = false } = options;
  const wantsTask = info.taskSupport === 'required' || (info.taskSupport === 'optional' && (typeof asTasks === 'function' ? asTasks(info) : asTasks));
  const call = async (input: Record<string, unknown>, ctx: ToolContext, timeoutMs: number): Promise<unknown> => {
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
  const schema = (definition.inputSchema ?? {}) as Record<string, unknown>;
  return jsonSchemaTool({ name, description: definition.description ?? definition.title ?? '', schema, info, traits: traitsOf(info.annotations), options, call });
}

function keptTask(resumed: unknown): KeptTask['mcpTask'] | undefined {
  const task = (resumed as Partial<KeptTask> | undefined)?.mcpTask;
  return typeof task?.taskId === 'string' && typeof task.serverUrl === 'string' && typeof task.progressToken === 'string' ? task : undefined;
}
