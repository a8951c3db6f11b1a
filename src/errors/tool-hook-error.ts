import { TabAgentError, codeGuard } from './base.js';
import { messageOf } from './message-of.js';

export type HookName = 'beforeToolCall' | 'approve' | 'needsApproval' | 'afterToolCall';

/**
 * A hook (or approval callback, or a needsApproval function) threw for a call.
 * Calls already running finished and their results are kept; this call and
 * those after it stay pending: answer, rerun (`runTool`) or cancel them.
 */
export class ToolHookError extends TabAgentError {
  override readonly name = 'ToolHookError';
  readonly code = 'TOOL_HOOK_FAILED';
  readonly hook: HookName;
  readonly toolName: string;
  readonly callId: string;

  constructor(fields: { hook: HookName; toolName: string; callId: string; cause: unknown }) {
    super(`The ${fields.hook} hook failed for tool "${fields.toolName}" (call ${fields.callId}): ${messageOf(fields.cause)}`, { cause: fields.cause });
    this.hook = fields.hook;
    this.toolName = fields.toolName;
    this.callId = fields.callId;
  }
}

export const isToolHookError = codeGuard<ToolHookError>('TOOL_HOOK_FAILED');
