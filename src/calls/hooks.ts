// What a chat may decide about tool calls before and after they run. Hooks
// are awaited one at a time, even when handlers run concurrently:
// beforeToolCall and approve in the model's call order, afterToolCall as each
// handler ends (its result is kept then, not after the slower calls before it).
import type { JsonObject } from '../shared/json.js';
import type { ToolTraits } from '../tools/types.js';

/** A call about to run (or just run), with its validated input. */
export interface ToolCallInfo extends ToolTraits {
  callId: string;
  toolName: string;
  /** The input after validation and coercion. */
  input: unknown;
  /** The arguments as the model wrote them. */
  arguments: JsonObject;
}

/** `true`/`false`, or with a reason the model will read when denied. */
export type ApprovalDecision = boolean | { approved: boolean; reason?: string };

/** What the model reads as the reason of a denial that gives none. */
export const DEFAULT_DENIAL = 'the user did not approve this call';

/** A call's outcome, as `afterToolCall` sees it. */
export type ToolOutcome = { ok: true; result: unknown } | { ok: false; error: string };

/** What a hook gets besides the call. */
export interface HookContext {
  /**
   * Aborts when the run is aborted: close the question you asked the user.
   * The run does not wait for a hook after its signal aborts.
   */
  signal: AbortSignal;
}

export interface ToolHooks {
  /**
   * Decide on calls to tools with `needsApproval`. Without it, such calls
   * wait, stored with the chat, for a person: `reply.approvals`, then
   * `chat.approve` or `chat.deny`, also after a reload or in another tab.
   */
  approve?: (call: ToolCallInfo, context: HookContext) => ApprovalDecision | Promise<ApprovalDecision>;
  /** Runs before every managed call; return `{ block: reason }` to stop it (the model reads the reason). */
  beforeToolCall?: (call: ToolCallInfo, context: HookContext) => void | { block: string } | Promise<void | { block: string }>;
  /**
   * Runs after every managed call; return `{ result }` to replace what the
   * model will read. If it throws, the call's handler has run but its result
   * is not kept: the call stays pending, `interrupted`, never run again by itself.
   */
  afterToolCall?: (call: ToolCallInfo, outcome: ToolOutcome, context: HookContext) => void | { result: unknown } | Promise<void | { result: unknown }>;
}

export function checkHooks(hooks: ToolHooks): ToolHooks {
  for (const name of ['approve', 'beforeToolCall', 'afterToolCall'] as const) {
    if (hooks[name] !== undefined && typeof hooks[name] !== 'function') throw new TypeError(`${name} must be a function`);
  }
  return { approve: hooks.approve, beforeToolCall: hooks.beforeToolCall, afterToolCall: hooks.afterToolCall };
}
