// A turn's managed calls, run with bounded concurrency.
//
// How a batch settles:
// - Results come back in the model's call order, whatever order handlers end in.
// - Hooks (beforeToolCall, approve, afterToolCall) run one at a time, in call
//   order; handlers run concurrently, at most `concurrency` at once.
// - After a `return`-policy failure, or a hook that threw, no new call starts;
//   calls in flight finish, and the batch settles once they have.
// - After an abort no new call starts, and the batch settles at once, with
//   `aborted` set: a handler that ignores its signal goes on detached.
// - The journal hears of each call before its handler starts (and that is on
//   disk before it does), and of each call as it ends.
import { execute, finish, prepare, type CallEnvironment, type CallOutcome } from './run-call.js';
import { Serial } from '../shared/serial.js';
import type { ManagedTool } from '../tools/types.js';
import type { ToolCall, ToolResultRecord } from '../shared/chat.js';

/** Where a batch's progress goes as it happens, so a closed tab loses none of it. */
export interface BatchJournal {
  /** A handler is about to start; it starts once this resolves. */
  started(callId: string): Promise<void>;
  /** A call ended, with its result, or with none (it failed under the `return` policy). `more`: other calls of the batch are still to end. */
  finished(callId: string, record: ToolResultRecord | undefined, more: boolean): Promise<void>;
  /** A call waits for a person's approval. */
  awaiting(callId: string, more: boolean): Promise<void>;
}

export interface BatchResult {
  /** In call order; undefined for a call that did not run (after a failure or an abort). */
  records: Array<ToolResultRecord | undefined>;
  /** The first `return`-policy failure (or hook that threw), in call order. */
  failure?: Error;
  aborted: boolean;
  /** Every call of the batch asked to end the run. */
  terminate: boolean;
  /** Calls waiting for a person's approval, in call order. */
  awaiting: string[];
  /** Handlers that ran (calls denied, blocked or refused as invalid never do). */
  ran: number;
}

export async function runBatch(
  calls: readonly ToolCall[],
  /** Undefined only for an unreadable call that names no managed tool (it is answered with its error). */
  toolFor: (call: ToolCall) => ManagedTool | undefined,
  concurrency: number,
  /** `approved`: a person already approved these calls (chat.approve): they are not asked about again. */
  env: CallEnvironment & { journal: BatchJournal; approved?: boolean },
): Promise<BatchResult> {
  const outcomes: Array<CallOutcome | undefined> = new Array(calls.length);
  const finished: Array<Promise<void>> = [];
  const hooks = new Serial();
  let next = 0;
  let stopped = false;

  let ended = 0;
  let ran = 0;
  const end = async (index: number, outcome: CallOutcome): Promise<void> => {
    // Ends are told in call order, whichever handler finished first.
    await finished[index - 1];
    if (outcome.ended) env.emit('tool-end', outcome.ended);
    outcomes[index] = outcome;
    ended++;
    if (outcome.failure) stopped = true;
    const more = !stopped && ended < calls.length;
    if (outcome.awaiting) await env.journal.awaiting(calls[index]!.id, more);
    else await env.journal.finished(calls[index]!.id, outcome.record, more);
  };

  const runOne = async (index: number): Promise<void> => {
    let markFinished!: () => void;
    finished[index] = new Promise((resolve) => (markFinished = resolve));
    try {
      const call = calls[index]!;
      const prepared = await hooks.run(() => prepare(toolFor(call), call, env, env.approved));
      if (!prepared.run) return await end(index, prepared.outcome);
      const { tool } = prepared;
      await env.journal.started(call.id);
      ran++;
      const executed = await execute(tool, prepared.info, env);
      // afterToolCall in call order: wait for the call before this one.
      await finished[index - 1];
      await end(index, await hooks.run(() => finish(tool, prepared.info, executed, env, env.maxResultChars)));
    } catch (error) {
      // A hook that threw, or a journal write that failed: this call fails, the batch stops.
      if (env.signal.aborted) throw error;
      outcomes[index] = { failure: error as Error };
      stopped = true;
    } finally {
      markFinished();
    }
  };

  const lane = async (): Promise<void> => {
    while (!stopped && !env.signal.aborted && next < calls.length) {
      const index = next++;
      try {
        await runOne(index);
      } catch {
        // Only an abort gets here (runOne keeps every other failure as the call's outcome).
        stopped = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, lane));

  // Not outcomes.slice(): a hole (a call that never ran) must count.
  const all = Array.from({ length: calls.length }, (_, i) => outcomes[i]);
  return {
    records: all.map((o) => o?.record),
    failure: all.find((o) => o?.failure)?.failure,
    aborted: env.signal.aborted,
    terminate: all.length === calls.length && all.every((o) => o?.terminate === true),
    awaiting: calls.filter((_, i) => all[i]?.awaiting).map((c) => c.id),
    ran,
  };
}
