// The call pipeline, src/calls/: what becomes of a model's calls to managed
// tools. One call (run-call.ts): validated, through beforeToolCall and
// approval, run with its timeout and retries, encoded, settled under its
// error policy, told as tool events (tool-events.ts). A turn's calls together
// (this module), their journal on disk (batch-journal.ts), their order
// (call-order.ts); around them the chat's tools (tool-set.ts), the hooks
// (hooks.ts), the results a page gives (page-result.ts), what a chat tool
// knows of its call (call-scope.ts). It imports shared/, errors/ and tools/
// only: the run, the chat and the tool sources above use it, and it knows
// none of them.
//
// A turn's managed calls, run with bounded concurrency.
//
// How a batch settles:
// - Each call is settled as it ends, whatever the calls before it are doing:
//   its afterToolCall, its tool-end event and its journal entry come then (a
//   result held back for a slower call would be lost with the tab). Only
//   `records`, what the model reads, is in the model's call order.
// - Hooks run one at a time: beforeToolCall and approve in call order (calls
//   start in that order), afterToolCall as each handler ends. Handlers run
//   concurrently, at most `concurrency` at once.
// - After a `return`-policy failure, a hook that threw or a journal write that
//   failed, no new call starts; calls in flight finish, and the batch settles
//   once they have.
// - A handler that ran leaves its result in `records` (also one the journal
//   failed to write: the caller's commit keeps it), or, when what came after
//   it failed, its id in `interrupted`: the journal is not told it ended, so
//   it stays marked started and nothing runs it again by itself.
// - After an abort no new call starts, and the batch settles at once, with
//   `aborted` set: a handler that ignores its signal goes on detached.
// - The journal hears of each call before its handler starts (and that is on
//   disk before it does), and of each call as it ends.
import { execute, finish, prepare, type CallEnvironment, type CallOutcome } from './run-call.js';
import { Serial } from '../shared/serial.js';
import type { ManagedTool } from '../tools/types.js';
import type { ToolCall, ToolResultRecord } from '../shared/chat.js';
import type { JsonValue } from '../shared/json.js';

/** Where a batch's progress goes as it happens, so a closed tab loses none of it. */
export interface BatchJournal {
  /** A handler is about to start; it starts once this resolves. */
  started(callId: string): Promise<void>;
  /**
   * A call ended, with its result, or with none (its handler failed under the
   * `return` policy: it is no longer started). `more`: other calls of the
   * batch may still end.
   */
  finished(callId: string, record: ToolResultRecord | undefined, more: boolean): Promise<void>;
  /** A call waits for a person's approval. */
  awaiting(callId: string, more: boolean): Promise<void>;
  /** A started call keeps this, to be resumed if it is cut off (ToolContext.keep): on disk once this resolves. */
  kept(callId: string, state: JsonValue): Promise<void>;
}

export interface BatchResult {
  /** In call order; undefined for a call that has no result (it did not run, failed, or was interrupted). */
  records: Array<ToolResultRecord | undefined>;
  /** The first failure in call order: a `return`-policy failure, a hook that threw, a journal write that failed. */
  failure?: Error;
  aborted: boolean;
  /** Every call of the batch asked to end the run. */
  terminate: boolean;
  /** Calls waiting for a person's approval, in call order. */
  awaiting: string[];
  /** Calls whose handler ran and left no result (what came after it failed): keep them marked started. */
  interrupted: string[];
  /** Handlers that ran (calls denied, blocked or refused as invalid never do). */
  ran: number;
}

export async function runBatch(
  calls: readonly ToolCall[],
  /** Undefined only for a call the model must write again that names no managed tool (it is answered with its error). */
  toolFor: (call: ToolCall) => ManagedTool | undefined,
  concurrency: number,
  /** `approved`: a person already approved these calls (chat.approve): they are not asked about again. */
  env: CallEnvironment & { journal: BatchJournal; approved?: boolean },
): Promise<BatchResult> {
  const outcomes: Array<CallOutcome | undefined> = new Array(calls.length);
  const failures: Array<Error | undefined> = new Array(calls.length);
  const interrupted = new Set<number>();
  const inFlight = new Set<number>();
  const hooks = new Serial();
  let next = 0;
  let stopped = false;
  let ran = 0;
  // Whether other calls may still end: if so the journal writes now, else the caller's commit keeps it with the rest.
  const more = () => inFlight.size > 0 || (!stopped && next < calls.length);

  const settle = async (index: number, outcome: CallOutcome): Promise<void> => {
    outcomes[index] = outcome;
    failures[index] = outcome.failure;
    inFlight.delete(index);
    if (outcome.failure) stopped = true;
    if (outcome.interrupted) interrupted.add(index);
    if (outcome.ended) env.emit('tool-end', outcome.ended);
    const { id } = calls[index]!;
    if (outcome.awaiting) await env.journal.awaiting(id, more());
    // An interrupted call is not told of: it stays marked started.
    else if (!outcome.interrupted) await env.journal.finished(id, outcome.record, more());
  };

  const runOne = async (index: number): Promise<void> => {
    const call = calls[index]!;
    let handlerRan = false;
    try {
      const prepared = await hooks.run(() => prepare(toolFor(call), call, env, env.approved));
      if (!prepared.run) return await settle(index, prepared.outcome);
      const { tool, info } = prepared;
      await env.journal.started(call.id);
      ran++;
      handlerRan = true;
      const executed = await execute(tool, info, { ...env, keep: (callId, state) => env.journal.kept(callId, state) });
      await settle(index, await hooks.run(() => finish(tool, info, executed, env, env.maxResultChars)));
    } catch (error) {
      // A hook that threw, or a journal write that failed: the batch stops.
      // A result already in hand stays in `records`; a handler that ran
      // without leaving one is interrupted.
      if (env.signal.aborted) throw error;
      failures[index] ??= error as Error;
      if (handlerRan && !outcomes[index]) interrupted.add(index);
      stopped = true;
    } finally {
      inFlight.delete(index);
    }
  };

  const lane = async (): Promise<void> => {
    while (!stopped && !env.signal.aborted && next < calls.length) {
      const index = next++;
      inFlight.add(index);
      try {
        await runOne(index);
      } catch {
        // Only an abort gets here (runOne keeps every other failure as the call's).
        stopped = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, lane));

  // Not outcomes.slice(): a hole (a call that never ran) must count.
  const all = Array.from({ length: calls.length }, (_, i) => outcomes[i]);
  return {
    records: all.map((o) => o?.record),
    failure: Array.from({ length: calls.length }, (_, i) => failures[i]).find((f) => f !== undefined),
    aborted: env.signal.aborted,
    terminate: all.every((o) => o?.terminate === true),
    awaiting: calls.filter((_, i) => all[i]?.awaiting).map((c) => c.id),
    interrupted: calls.filter((_, i) => interrupted.has(i)).map((c) => c.id),
    ran,
  };
}
