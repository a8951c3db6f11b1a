// A tool batch's progress on disk as it happens: which calls started, which
// ended with what, which wait for approval.
import type { BatchJournal } from './run-batch.js';
import { Serial } from '../shared/serial.js';
import type { ChatMessage, ToolResultRecord } from '../shared/chat.js';
import type { JsonValue } from '../shared/json.js';

/** The pending turn's state as a commit writes it beside the messages it appends (none unless given). */
export interface PendingState {
  /** Answers given so far to the pending turn's calls. */
  answers?: ToolResultRecord[];
  /** Pending calls whose handler has started. */
  started?: string[];
  /** Pending calls waiting for approval. */
  awaiting?: string[];
  /** What started calls kept to be resumed, by call id (only started calls keep anything). */
  kept?: Record<string, JsonValue>;
}

/**
 * The batch's progress, written as it happens: one write at a time, each
 * holding every answer so far and the calls started and not ended. A result
 * is written as it ends while others of the batch may still end; the last
 * one goes with the caller's commit. A call never said to have ended (its
 * result was lost after its handler ran) stays started in every write.
 */
export function batchJournal(commit: (messages: ChatMessage[], state: PendingState) => Promise<void>, markedWithTurn: readonly string[]): BatchJournal & { close(): Promise<void> } {
  const answers: ToolResultRecord[] = [];
  const awaiting: string[] = [];
  const started = new Set<string>(markedWithTurn);
  const unwritten = new Set<string>(markedWithTurn);
  /** What started calls keep to be resumed. */
  const kept = new Map<string, JsonValue>();
  const write = new Serial();
  let closed = false;
  let last: Promise<void> = Promise.resolve();
  const save = () => (last = write.run(() => (closed ? Promise.resolve() : commit([], { answers: [...answers], started: [...started], awaiting: [...awaiting], kept: Object.fromEntries(kept) }))));
  return {
    started(callId) {
      if (unwritten.delete(callId)) return Promise.resolve();
      started.add(callId);
      return save();
    },
    kept(callId, state) {
      if (closed) return Promise.resolve();
      // A call marked with its turn is started on disk already: what it keeps goes with it.
      unwritten.delete(callId);
      started.add(callId);
      kept.set(callId, state);
      return save();
    },
    awaiting(callId, more) {
      if (closed) return Promise.resolve();
      unwritten.delete(callId);
      started.delete(callId);
      kept.delete(callId);
      awaiting.push(callId);
      return more ? save() : Promise.resolve();
    },
    finished(callId, record, more) {
      if (closed) return Promise.resolve();
      unwritten.delete(callId);
      started.delete(callId);
      kept.delete(callId);
      if (record) answers.push(record);
      return more ? save() : Promise.resolve();
    },
    async close() {
      closed = true;
      await last.catch(() => undefined);
    },
  };
}
