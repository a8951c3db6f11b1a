import { TabAgentError, codeGuard } from './base.js';

/** A result was given for a call id that is not waiting for one (unknown, or already answered). */
export class UnknownToolCallError extends TabAgentError {
  override readonly name = 'UnknownToolCallError';
  readonly code = 'UNKNOWN_TOOL_CALL';
  readonly callId: string;
  readonly pendingCallIds: string[];

  /** `which`: the kind of pending call that was looked for (e.g. 'awaiting approval'); `pendingCallIds` lists those. */
  constructor(callId: string, pendingCallIds: string[], which = 'pending') {
    super(`No ${which} tool call has id "${callId}". ${which[0]!.toUpperCase()}${which.slice(1)}: ${pendingCallIds.length ? pendingCallIds.join(', ') : '(none)'}.`);
    this.callId = callId;
    this.pendingCallIds = pendingCallIds;
  }
}

export const isUnknownToolCallError = codeGuard<UnknownToolCallError>('UNKNOWN_TOOL_CALL');
