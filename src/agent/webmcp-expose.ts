// A chat's tools on `document.modelContext`: each registered with its JSON
// Schema (zod's, as the model is shown it) and an `execute` that takes the
// browser agent's call through the chat's own call pipeline (validation with
// the same coercions, beforeToolCall and approval, the handler with its
// timeout and retries). A call that does not run, or fails, rejects: that is
// how WebMCP tells the agent. Loaded on demand by register-webmcp-tools.ts.
import { WebMcpToolError } from '../errors/index.js';
import type { messageOf } from '../errors/message-of.js';
import type { ModelContextLike, WebMcpToolDescriptor } from '../mcp/webmcp-context.js';
import { ownRegistrations } from '../mcp/webmcp-own.js';
import type { JsonObject } from '../shared/json.js';
import type { jsonProblem } from '../tools/encode-result.js';
import type { ManagedTool } from '../tools/types.js';
import type { CallEnvironment, execute, prepare } from './run-call.js';
import type { ToolHooks } from './hooks.js';

let calls = 0;

/** What this module takes from the page entry. */
export interface Pipeline {
  prepare: typeof prepare;
  execute: typeof execute;
  jsonProblem: typeof jsonProblem;
  messageOf: typeof messageOf;
}

/** What registering gave: the function that unregisters, or the tool `registerTool` refused (then none is registered). */
export type Exposed = { unregister: () => void; refused?: undefined } | { refused: string; cause: unknown; unregister?: undefined };

export async function exposeTools(context: ModelContextLike, tools: readonly ManagedTool[], options: { approve?: ToolHooks['approve']; beforeToolCall?: ToolHooks['beforeToolCall']; signal?: AbortSignal }, pipeline: Pipeline): Promise<Exposed> {
  const registration = new AbortController();
  const unregister = () => {
    if (registration.signal.aborted) return;
    registration.abort(new DOMException('The tools were unregistered', 'AbortError'));
    for (const t of tools) ownRegistrations.delete(t.name);
  };
  options.signal?.addEventListener('abort', unregister, { once: true });
  const env: CallEnvironment = {
    signal: registration.signal,
    maxResultChars: Number.MAX_SAFE_INTEGER,
    hooks: { approve: options.approve, beforeToolCall: options.beforeToolCall },
    emit: () => undefined,
  };
  for (const t of tools) ownRegistrations.add(t.name);
  const results = await Promise.allSettled(tools.map((t) => context.registerTool(descriptorOf(t, env, pipeline), { signal: registration.signal })));
  const failed = results.findIndex((r) => r.status === 'rejected');
  if (failed < 0 || registration.signal.aborted) return { unregister };
  // All or none: the ones that did register leave again.
  unregister();
  return { refused: tools[failed]!.name, cause: (results[failed] as PromiseRejectedResult).reason };
}

function descriptorOf(tool: ManagedTool, env: CallEnvironment, pipeline: Pipeline): WebMcpToolDescriptor {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
    ...(tool.readOnly ? { annotations: { readOnlyHint: true } } : {}),
    execute: (input) => run(tool, input, env, pipeline),
  };
}

async function run(tool: ManagedTool, input: Record<string, unknown>, env: CallEnvironment, { prepare, execute, jsonProblem, messageOf }: Pipeline): Promise<unknown> {
  const call = { id: `webmcp-${++calls}`, name: tool.name, arguments: input as JsonObject };
  const gone = () => new WebMcpToolError({ toolName: tool.name, failure: 'gone', detail: 'the tools were unregistered' });
  try {
    const prepared = await prepare(tool, call, env);
    if (!prepared.run) {
      const { outcome } = prepared;
      const detail = outcome.awaiting ? 'the call needs approval' : refusal(outcome.record!.content);
      throw new WebMcpToolError({ toolName: tool.name, failure: 'refused', detail });
    }
    const executed = await execute(tool, prepared.info, env);
    if (!executed.ok) throw new WebMcpToolError({ toolName: tool.name, failure: 'tool', detail: messageOf(executed.error), cause: executed.error });
    // The browser writes the result as JSON: what would not survive that is the tool's mistake, said now.
    const problem = jsonProblem(executed.value);
    if (problem) throw new WebMcpToolError({ toolName: tool.name, failure: 'tool', detail: `the result is not JSON data: ${problem}` });
    return executed.value;
  } catch (error) {
    if (env.signal.aborted) throw gone();
    throw error;
  }
}

/** Why a call did not run, from what the model would have read (`{"error": …}` or `{"denied": true, "reason": …}`). */
function refusal(content: string): string {
  const said = JSON.parse(content) as { error?: string; reason?: string };
  return said.error ?? said.reason ?? content;
}
