import { TabAgentError, codeGuard } from './base.js';
import { messageOf } from './message-of.js';

/**
 * A managed tool failed under the `return` policy. The call stays pending: answer
 * it with `sendToolResult` to go on, or cancel it.
 */
export class ToolExecutionError extends TabAgentError {
  override readonly name = 'ToolExecutionError';
  readonly code = 'TOOL_EXECUTION_FAILED';
  readonly toolName: string;
  readonly callId: string;

  constructor(fields: { toolName: string; callId: string; cause: unknown }) {
    super(`Tool "${fields.toolName}" failed: ${messageOf(fields.cause)}`, { cause: fields.cause });
    this.toolName = fields.toolName;
    this.callId = fields.callId;
  }
}

export const isToolExecutionError = codeGuard<ToolExecutionError>('TOOL_EXECUTION_FAILED');
