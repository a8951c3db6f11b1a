// Answers to the calls a chat's last turn left pending: results the page
// gives (sendToolResults), a call run by the page's hand (runTool, approve),
// a denial, or every call cancelled. Once each call of the turn has its
// answer they go to the model as one message, and the run goes on. A call
// run or denied by hand goes through the call pipeline (run-pending.ts),
// which loads on demand.
import { InvalidOptionsError, UnknownToolCallError } from '../errors/index.js';
import type { Reply, ToolCall, ToolResultRecord } from '../shared/chat.js';
import { inCallOrder, unrunRecord } from '../calls/call-order.js';
import { pageResult, type ToolResultInput } from '../calls/page-result.js';
import { emptyStats } from '../run/run-record.js';
import type { SendOptions } from './chat-options.js';
import { planRun, runChat, type ChatCore, type PartListener } from './chat-run.js';

/** Answer pending calls with the page's results. Unknown or already answered ids reject, changing nothing. */
export function sendResults(core: ChatCore, results: readonly ToolResultInput[], options: SendOptions, onPart?: PartListener): Promise<Reply> {
  if (!Array.isArray(results) || results.length === 0) {
    return Promise.reject(new InvalidOptionsError('results', 'must be a non-empty array of { callId, result }'));
  }
  const { state } = core;
  return state.exclusive(async () => {
    options.signal?.throwIfAborted();
    const calls = state.claim(results.map((r) => r?.callId));
    const records = calls.map((call, i) => pageResult(call, results[i]!, core.settings.maxResultChars));
    return answer(core, records, options, onPart);
  }, { signal: options.signal });
}

/**
 * Work on one pending call by the page's hand. It may run a tool before
 * anything is written: catch up first (another tab may have answered it),
 * so it never runs twice.
 */
export function byHand(core: ChatCore, callId: unknown, options: SendOptions, work: (pending: ToolCall) => Promise<Reply>, awaitingOnly = false): Promise<Reply> {
  const { state } = core;
  return state.exclusive(
    async () => {
      const [pending] = state.claim([callId]);
      if (awaitingOnly && !pending!.awaitingApproval) {
        throw new UnknownToolCallError(String(callId), state.pendingToolCalls.filter((c) => c.awaitingApproval).map((c) => c.id), 'awaiting approval');
      }
      return work(pending!);
    },
    { signal: options.signal, catchUp: true },
  );
}

/** Record answers; once every call of the turn has one, they go to the model as one message and the loop runs on. */
export async function answer(core: ChatCore, records: ToolResultRecord[], options: SendOptions, onPart?: PartListener): Promise<Reply> {
  const { state } = core;
  const turn = state.pendingTurn!;
  const answers = [...state.answers, ...records];
  if (answers.length < turn.toolCalls.length) {
    // Other calls' marks stay: an interrupted call is still interrupted, one awaiting approval still waits.
    await state.commit([], state.pendingAfter({ answers: records }));
    return replySoFar(core);
  }
  const plan = planRun(core, options);
  await state.commit([{ role: 'tool', results: inCallOrder(turn.toolCalls, answers), createdAt: Date.now() }]);
  return runChat(core, options, plan, onPart);
}

/** The reply while the turn still has calls pending. */
export function replySoFar({ state }: ChatCore): Reply {
  const turn = state.pendingTurn!;
  const pending = state.pendingToolCalls;
  const approvals = pending.filter((c) => c.awaitingApproval);
  return {
    text: turn.text,
    reasoning: turn.reasoning,
    toolCalls: pending.filter((c) => !c.awaitingApproval),
    ...(approvals.length ? { approvals } : {}),
    finishReason: turn.finishReason,
    stats: emptyStats(),
    steps: [],
  };
}

/** Answer every pending call with an error result without running the model, so the chat can move on. */
export async function cancelPending({ state }: ChatCore, reason: string): Promise<void> {
  const turn = state.pendingTurn;
  const pending = state.pendingToolCalls;
  if (!turn || pending.length === 0) return;
  const results = inCallOrder(turn.toolCalls, state.answers, (c) => unrunRecord(c, reason, 'cancelled'));
  await state.commit([{ role: 'tool', results, createdAt: Date.now() }]);
}
