// A pending call worked on by the page's hand: run through the same
// pipeline a run's batch takes (runTool, approve), or denied (deny). Loaded
// on demand, with the call pipeline, by chat.ts inside byHand's turn of the
// chat's queue: an app whose chats never run a call by hand carries none of it.
import { UnknownToolError } from '../errors/index.js';
import type { Reply, ToolCall } from '../shared/chat.js';
import { runBatch } from '../calls/run-batch.js';
import { deny } from '../calls/run-call.js';
import type { ToolEventName } from '../calls/tool-events.js';
import { abortReason } from '../run/run-record.js';
import type { SendOptions } from './chat-options.js';
import type { ChatCore, PartListener } from './chat-run.js';
import type { PendingChange } from './chat-state.js';
import { answer, replySoFar } from './tool-answers.js';

/** One pending call through the same pipeline a run's batch takes, journaled the same way, then answered as sendToolResult would. */
export async function runPending(core: ChatCore, pending: ToolCall, options: SendOptions, approved: boolean, onPart?: PartListener): Promise<Reply> {
  const { state, tools } = core;
  const managed = tools.managed(pending.name);
  if (!managed) throw new UnknownToolError(pending.name, tools.names.filter((n) => tools.managed(n)), 'is not a managed tool of this chat');
  const signal = options.signal ?? new AbortController().signal;
  const mark = (change: PendingChange) => state.commit([], state.pendingAfter(change));
  // A call cut off after it kept its state is resumed with it (it ran, approved, once already).
  const resumed = pending.resumable ? state.keptFor(pending.id) : undefined;
  const batch = await runBatch([pending], () => managed, 1, {
    signal,
    maxResultChars: core.settings.maxResultChars,
    hooks: core.hooks,
    emit: (type, event) => core.emit<ToolEventName>(type, event),
    approved: approved || resumed !== undefined,
    chain: [core.id],
    ...(resumed !== undefined ? { resumed: (callId: string) => (callId === pending.id ? resumed : undefined) } : {}),
    journal: {
      // Marked started on disk first: a closed tab then reports it interrupted, never reruns it.
      started: (callId) => mark({ started: [callId] }),
      kept: (callId, kept) => mark({ started: [callId], kept: { [callId]: kept } }),
      // Nobody to ask: it waits for chat.approve / chat.deny.
      awaiting: (callId) => mark({ awaiting: [callId] }),
      // A result is answered below; a failure leaves it no longer started, still pending.
      finished: (callId, record) => (record ? Promise.resolve() : mark({ done: [callId] })),
    },
  });
  if (batch.aborted) throw abortReason(signal);
  if (batch.failure) throw batch.failure;
  if (batch.awaiting.length) return replySoFar(core);
  return answer(core, [batch.records[0]!], options, onPart);
}

/** Deny a call that waits for approval: it never runs, and the model reads why. */
export function denyPending(core: ChatCore, pending: ToolCall, reason: string, options: SendOptions, onPart?: PartListener): Promise<Reply> {
  const { outcome } = deny({ callId: pending.id, toolName: pending.name }, reason, 'denied', { emit: (type, event) => core.emit<ToolEventName>(type, event) });
  core.emit('tool-end', outcome.ended!);
  return answer(core, [outcome.record!], options, onPart);
}
