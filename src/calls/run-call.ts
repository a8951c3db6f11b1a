// One managed call, in three steps: prepare (validation, beforeToolCall,
// approval), execute (the handler, with its timeout and retries), and finish
// (afterToolCall, the result's encoding, the error policy).
import { InvalidToolArgumentsError, ToolExecutionError, ToolHookError, isToolExecutionError, ToolTimeoutError, isToolTimeoutError, type HookName } from '../errors/index.js';
import { messageOf } from '../errors/message-of.js';
import { encodeError, encodeResult } from '../tools/encode-result.js';
import type { ManagedTool, ToolContext } from '../tools/types.js';
import type { ToolEventName, ToolEvents } from './tool-events.js';
import { DEFAULT_DENIAL, type ToolCallInfo, type ToolHooks, type ToolOutcome } from './hooks.js';
import type { ToolCall, ToolCallStatus, ToolResultRecord } from '../shared/chat.js';
import { untilAborted } from '../shared/until-aborted.js';
import { wait } from '../shared/wait.js';
import { lazyImport } from '../shared/lazy-import.js';
import { setScope, type CallScope } from './call-scope.js';
import type { JsonValue } from '../shared/json.js';

export interface CallEnvironment {
  signal: AbortSignal;
  maxResultChars: number;
  hooks: ToolHooks;
  emit: <K extends ToolEventName>(type: K, event: ToolEvents[K]) => void;
  /** Chat ids of the runs waiting on these calls, the outermost first (see call-scope.ts). */
  chain?: readonly string[];
  /** Keep a started call's state with it (ToolContext.keep). */
  keep?: (callId: string, state: JsonValue) => Promise<void>;
  /** What a call being resumed kept before it was cut off. */
  resumed?: (callId: string) => JsonValue | undefined;
}

type ToolEnd = ToolEvents['tool-end'];

const loadValidation = lazyImport(() => import('../tools/validate-arguments.js'));

/**
 * A call either produced a result for the model, or failed under the `return`
 * policy. `ended` is its tool-end event, for the caller to emit.
 * `interrupted`: the handler ran to its end and its result cannot be kept
 * (not JSON): it may have done its work, so it must not look never run.
 */
export type CallOutcome =
  | { record: ToolResultRecord; terminate: boolean; failure?: undefined; ended: ToolEnd; awaiting?: undefined; interrupted?: undefined }
  | { failure: Error; interrupted: boolean; record?: undefined; terminate?: undefined; ended?: ToolEnd; awaiting?: undefined }
  /** It needs approval and no `approve` callback can give it: it waits for a person (chat.approve / chat.deny). */
  | { awaiting: true; record?: undefined; failure?: undefined; terminate?: undefined; ended?: undefined; interrupted?: undefined };

/** `reason`: why a call that will not run was refused, in words (the model reads it inside its result). */
export type Prepared = { run: true; tool: ManagedTool; info: ToolCallInfo } | { run: false; outcome: CallOutcome; reason?: string };

/** `chatId`: the chat a chat tool ran the call in. */
export type Executed = ({ ok: true; value: unknown; terminate: boolean } | { ok: false; error: unknown }) & { attempts: number; ms: number; chatId?: string };

/** The result, and the tool-end event that tells of it. */
function ending(call: { callId: string; toolName: string }, content: string, status: ToolCallStatus, ran?: { ms: number; attempts: number; chatId?: string }) {
  const isError = status !== 'ok';
  const durationMs = ran?.ms ?? 0;
  const attempts = ran?.attempts ?? 0;
  const link = ran?.chatId ? { chatId: ran.chatId } : {};
  const record: ToolResultRecord = { callId: call.callId, name: call.toolName, content, isError, status, durationMs, attempts, ...link };
  const ended: ToolEnd = { callId: call.callId, toolName: call.toolName, content, isError, status, durationMs, attempts, ...link };
  return { record, ended };
}

/** `approved`: a person already approved this call (chat.approve), so it is not asked about again. */
export async function prepare(tool: ManagedTool | undefined, call: ToolCall, env: CallEnvironment, approved = false): Promise<Prepared> {
  env.signal.throwIfAborted();
  const toModel = (message: string): Prepared => ({
    run: false,
    outcome: { ...ending({ callId: call.id, toolName: call.name }, encodeError(message), 'invalid'), terminate: false },
    reason: message,
  });
  // The model's own mistakes go back to the model, whatever the policy: it can fix them.
  if (call.error || !tool) return toModel(call.error ?? `"${call.name}" is not a tool of this chat`);
  // Loaded with the first call a model makes, not at createAgent: a page that starts an agent may never call a tool.
  const { validateArguments } = await loadValidation();
  const validation = await validateArguments(tool.input, tool.parameters, call.arguments);
  if (!validation.ok) return toModel(new InvalidToolArgumentsError({ toolName: tool.name, callId: call.id, issues: validation.issues }).message);
  const info: ToolCallInfo = { callId: call.id, toolName: tool.name, input: validation.value, arguments: call.arguments, readOnly: tool.readOnly, destructive: tool.destructive };

  const context = { signal: env.signal };
  const blocked = await hook('beforeToolCall', info, env.signal, () => env.hooks.beforeToolCall?.(info, context));
  if (blocked && typeof blocked === 'object' && 'block' in blocked) return deny(info, String(blocked.block), 'blocked', env);
  const { needsApproval } = tool;
  if (approved) return { run: true, tool, info };
  const needs = typeof needsApproval === 'function' ? await hook('needsApproval', info, env.signal, () => needsApproval(validation.value)) : needsApproval;
  if (needs) {
    const { approve } = env.hooks;
    env.emit('approval-request', { callId: info.callId, toolName: info.toolName, input: info.input });
    // Nobody to ask here: the call waits, stored, for a person (also after a reload, also in another tab).
    if (!approve) return { run: false, outcome: { awaiting: true } };
    const decision = await hook('approve', info, env.signal, () => approve(info, context));
    const yes = typeof decision === 'boolean' ? decision : decision?.approved === true;
    if (!yes) return deny(info, (typeof decision === 'object' && decision?.reason) || DEFAULT_DENIAL, 'denied', env);
  }
  return { run: true, tool, info };
}

/** A call that will not run: the model reads why. */
export function deny(info: { callId: string; toolName: string }, reason: string, status: 'denied' | 'blocked', env: Pick<CallEnvironment, 'emit'>): Prepared & { run: false } {
  const content = encodeResult({ denied: true, reason }, info);
  env.emit('tool-denied', { callId: info.callId, toolName: info.toolName, reason });
  return { run: false, outcome: { ...ending(info, content, status), terminate: false }, reason };
}

export async function execute(tool: ManagedTool, info: ToolCallInfo, env: CallEnvironment): Promise<Executed> {
  const started = performance.now();
  env.emit('tool-start', { callId: info.callId, toolName: tool.name, input: info.input });
  // Progress after the call ended (a handler that reports late) is not news.
  let over = false;
  const scope: CallScope = { chain: env.chain ?? [] };
  try {
    const executed = await attempts(tool, info, env, started, () => over, scope);
    return scope.chatId ? { ...executed, chatId: scope.chatId } : executed;
  } finally {
    over = true;
  }
}

async function attempts(tool: ManagedTool, info: ToolCallInfo, env: CallEnvironment, started: number, over: () => boolean, scope: CallScope): Promise<Executed> {
  for (let attempt = 1; ; attempt++) {
    // An aborted call is never started, and never retried (FAULTS H5).
    env.signal.throwIfAborted();
    const timeout = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let terminate = false;
    const { keep } = env;
    const resumed = env.resumed?.(info.callId);
    const context: ToolContext = {
      callId: info.callId,
      signal: AbortSignal.any([env.signal, timeout.signal]),
      update: (details: unknown) => {
        if (!over()) env.emit('tool-progress', { callId: info.callId, toolName: tool.name, details });
      },
      terminate: () => void (terminate = true),
      ...(keep ? { keep: (state: JsonValue) => keep(info.callId, state) } : {}),
      ...(resumed !== undefined ? { resumed } : {}),
    };
    setScope(context, scope);
    try {
      const running = Promise.resolve().then(() => tool.run(info.input, context));
      // It may settle after a timeout or an abort, when no one waits for it any more.
      running.catch(() => undefined);
      let value: unknown;
      if (tool.timeoutMs === undefined) {
        // An abort settles the call at once: a handler that ignores its signal goes on detached.
        value = await untilAborted(running, env.signal);
      } else {
        value = await untilAborted(Promise.race([
          running,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              const error = new ToolTimeoutError({ toolName: tool.name, callId: info.callId, timeoutMs: tool.timeoutMs! });
              timeout.abort(error);
              reject(error);
            }, tool.timeoutMs);
          }),
        ]), env.signal);
      }
      return { ok: true, value, terminate, attempts: attempt, ms: performance.now() - started };
    } catch (error) {
      if (env.signal.aborted) throw env.signal.reason;
      const retry = tool.retry;
      // A timed-out run may still be running (handlers can ignore their
      // signal): a retry would put a second run of the same call in flight.
      if (!retry || timeout.signal.aborted || attempt >= retry.attempts || !(retry.retryOn?.(error) ?? true)) {
        return { ok: false, error, attempts: attempt, ms: performance.now() - started };
      }
      await wait(typeof retry.backoffMs === 'function' ? retry.backoffMs(attempt) : (retry.backoffMs ?? 0), env.signal);
    } finally {
      clearTimeout(timer);
    }
  }
}

export async function finish(tool: ManagedTool, info: ToolCallInfo, executed: Executed, env: CallEnvironment, maxResultChars: number): Promise<CallOutcome> {
  let outcome: ToolOutcome = executed.ok ? { ok: true, result: executed.value } : { ok: false, error: failureMessage(executed.error) };
  const seen = outcome;
  const rewritten = await hook('afterToolCall', info, env.signal, () => env.hooks.afterToolCall?.(info, seen, { signal: env.signal }));
  if (rewritten && typeof rewritten === 'object' && 'result' in rewritten) outcome = { ok: true, result: rewritten.result };

  const at = { toolName: tool.name, callId: info.callId };
  const ran = { ms: executed.ms, attempts: executed.attempts, chatId: executed.chatId };
  let failure: Error | undefined;
  if (outcome.ok) {
    try {
      const content = encodeResult(outcome.result, at, maxResultChars);
      return { ...ending(at, content, 'ok', ran), terminate: executed.ok && executed.terminate };
    } catch (error) {
      failure = error as Error;
    }
  } else {
    const cause = (executed as { error: unknown }).error;
    failure = isToolTimeoutError(cause) ? cause : new ToolExecutionError({ ...at, cause });
  }
  // The model sees the message only: never a stack (FAULTS X5).
  const content = encodeError(isToolExecutionError(failure) ? messageOf(failure.cause) : failure.message);
  const { record, ended } = ending(at, content, isToolTimeoutError(failure) ? 'timeout' : 'error', ran);
  if (tool.onError === 'inform') return { record, ended, terminate: false };
  // A handler that failed may be run again (as a retry would); one that
  // returned a value may have done its work (a payment) and must not be.
  return { failure, ended, interrupted: executed.ok };
}

/**
 * A hook's answer, or the abort (an unanswered question must not hold up a
 * stopped run). What the hook throws becomes a ToolHookError naming it, the
 * tool and the call.
 */
async function hook<T>(name: HookName, info: ToolCallInfo, signal: AbortSignal, call: () => T | Promise<T>): Promise<T> {
  try {
    return await untilAborted(Promise.resolve().then(call), signal);
  } catch (cause) {
    if (signal.aborted) throw cause;
    throw new ToolHookError({ hook: name, toolName: info.toolName, callId: info.callId, cause });
  }
}

function failureMessage(error: unknown): string {
  return isToolTimeoutError(error) ? error.message : messageOf(error);
}
