// A turn's results go back to the model in the order it made the calls, all
// in one message, whatever order they were answered in.
import { encodeError } from '../tools/encode-result.js';
import type { ToolCall, ToolResultRecord } from '../shared/chat.js';

/** The results for `calls`, in call order; `unanswered` gives the result of a call that has none (none may lack one without it). */
export function inCallOrder(calls: readonly ToolCall[], records: readonly ToolResultRecord[], unanswered?: (call: ToolCall) => ToolResultRecord): ToolResultRecord[] {
  return calls.map((call) => {
    const record = records.find((r) => r.callId === call.id) ?? unanswered?.(call);
    if (!record) throw new Error(`tabagent: call ${call.id} has no result`);
    return record;
  });
}

/** The result of a call that never ran to its end, as the model reads it. */
export function unrunRecord(call: ToolCall, reason: string, status: 'stopped' | 'cancelled'): ToolResultRecord {
  return { callId: call.id, name: call.name, content: encodeError(reason), isError: true, status };
}
