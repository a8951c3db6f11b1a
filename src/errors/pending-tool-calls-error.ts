import type { ToolCall } from '../shared/chat.js';
import { TabAgentError, codeGuard } from './base.js';

/** A new user message was sent while tool calls of the last turn are still unanswered. */
export class PendingToolCallsError extends TabAgentError {
  override readonly name = 'PendingToolCallsError';
  readonly code = 'PENDING_TOOL_CALLS';
  readonly calls: ToolCall[];

  constructor(calls: ToolCall[]) {
    super(`Answer the pending tool calls first (sendToolResult or cancelToolCalls): ${calls.map((c) => `${c.name} (${c.id})`).join(', ')}.`);
    this.calls = calls;
  }
}

export const isPendingToolCallsError = codeGuard<PendingToolCallsError>('PENDING_TOOL_CALLS');
