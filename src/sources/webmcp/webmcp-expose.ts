// A chat's tools on `document.modelContext`: each registered with its JSON
// Schema (zod's, as the model is shown it) and an `execute` that takes the
// browser agent's call through the chat's own call pipeline (validation with
// the same coercions, beforeToolCall and approval, the handler with its
// timeout and retries). A call that does not run, or fails, rejects: that is
// how WebMCP tells the agent. Loaded on demand by register-webmcp-tools.ts,
// its option checks and feature detection with it.
import { DuplicateToolError, InvalidOptionsError, WebMcpToolError, WebMcpUnavailableError } from '../../errors/index.js';
import { messageOf } from '../../errors/message-of.js';
import { findModelContext, type ModelContextLike, type WebMcpToolDescriptor } from './webmcp-context.js';
import { ownRegistrations } from './webmcp-own.js';
import type { JsonObject } from '../../shared/json.js';
import { jsonProblem } from '../../tools/encode-result.js';
import type { ManagedTool } from '../../tools/types.js';
import { execute, prepare, type CallEnvironment } from '../../calls/run-call.js';
import type { ToolHooks } from '../../calls/hooks.js';
import type { RegisterWebMcpToolsOptions } from './webmcp-types.js';

let calls = 0;

/** What registering gave: the function that unregisters, or the tool `registerTool` refused (then none is registered). */
type Exposed = { unregister: () => void; refused?: undefined } | { refused: string; cause: unknown; unregister?: undefined };

/** `registerWebMcpTools(tools, options)`: the tools checked, then registered where the browser has WebMCP. */
export async function registerTools(tools: readonly ManagedTool[], options: RegisterWebMcpToolsOptions): Promise<() => void> {
  const { approve, beforeToolCall, signal } = options;
  const names = new Set<string>();
  [...tools].forEach((t, i) => {
    // A raw tool's calls come back to the chat's caller: nothing could run for the browser's agent.
    if (t?.kind !== 'managed') throw new InvalidOptionsError(`tools[${i}]`, 'must be made with tool()');
    // WebMCP refuses a tool without a description.
    if (!t.description) throw new InvalidOptionsError(`tools[${i}].description`, 'must not be empty');
    if (t.needsApproval !== false && typeof approve !== 'function') throw new InvalidOptionsError('approve', `must be a function: "${t.name}" may need approval`);
    if (names.has(t.name)) throw new DuplicateToolError(t.name);
    names.add(t.name);
  });
  const context = findModelContext();
  if (!context || signal?.aborted) return () => undefined;
  const exposed = await exposeTools(context, tools, { approve, beforeToolCall, signal });
  if (exposed.unregister) return exposed.unregister;
  const { refused, cause } = exposed;
  // registerTool refuses a name already taken with InvalidStateError (our names and descriptions are otherwise valid).
  if ((cause as { name?: unknown })?.name === 'InvalidStateError') throw new DuplicateToolError(refused);
  throw new WebMcpUnavailableError({ detail: `registerTool refused "${refused}": ${messageOf(cause)}`, cause });
}

async function exposeTools(context: ModelContextLike, tools: readonly ManagedTool[], options: { approve?: ToolHooks['approve']; beforeToolCall?: ToolHooks['beforeToolCall']; signal?: AbortSignal }): Promise<Exposed> {
  const registration = new AbortController();
  const unregister = () => {
    if (registration.signal.aborted) return;
    registration.abort(new DOMException('The tools were unregistered', 'AbortError'));
    for (const t of tools) ownRegistrations.delete(t.name, registration);
  };
  options.signal?.addEventListener('abort', unregister, { once: true });
  const env: CallEnvironment = {
    signal: registration.signal,
    maxResultChars: Number.MAX_SAFE_INTEGER,
    hooks: { approve: options.approve, beforeToolCall: options.beforeToolCall },
    emit: () => undefined,
  };
  for (const t of tools) ownRegistrations.add(t.name, registration);
  const results = await Promise.allSettled(tools.map((t) => context.registerTool(descriptorOf(t, env), { signal: registration.signal })));
  const failed = results.findIndex((r) => r.status === 'rejected');
  if (failed < 0 || registration.signal.aborted) return { unregister };
  // All or none: the ones that did register leave again.
  unregister();
  return { refused: tools[failed]!.name, cause: (results[failed] as PromiseRejectedResult).reason };
}

function descriptorOf(tool: ManagedTool, env: CallEnvironment): WebMcpToolDescriptor {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
    ...(tool.readOnly ? { annotations: { readOnlyHint: true } } : {}),
    execute: (input) => run(tool, input, env),
  };
}

async function run(tool: ManagedTool, input: Record<string, unknown>, env: CallEnvironment): Promise<unknown> {
  const call = { id: `webmcp-${++calls}`, name: tool.name, arguments: input as JsonObject };
  const gone = () => new WebMcpToolError({ toolName: tool.name, failure: 'gone', detail: 'the tools were unregistered' });
  try {
    const prepared = await prepare(tool, call, env);
    if (!prepared.run) throw new WebMcpToolError({ toolName: tool.name, failure: 'refused', detail: prepared.reason ?? 'the call needs approval' });
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

