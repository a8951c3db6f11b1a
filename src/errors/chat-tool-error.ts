import type { ToolCall } from '../shared/chat.js';
import { TabAgentError, codeGuard } from './base.js';

/**
 * Why a chat used as a tool (`chat.asTool`) could not answer:
 * - `cycle`: the chat's own run is waiting on this call: a chat used as a tool
 *   of itself, of a chat it calls, or of a chat whose run waits (through
 *   other chats' calls) on the calling one, as when two chats that are each
 *   other's tool run at the same moment. It would wait forever; the call
 *   that would close the cycle fails at once.
 * - `pending`: its run ended with calls nobody in a tool call can answer
 *   (raw tools, approvals without an `approve` callback); they were cancelled
 *   so the chat can take the next task, and are in `calls`.
 */
export type ChatToolFailure = 'cycle' | 'pending';

/** A chat used as a tool (`chat.asTool`) could not answer. The tool's `onError` policy decides what the run does with it. */
export class ChatToolError extends TabAgentError {
  override readonly name = 'ChatToolError';
  readonly code = 'CHAT_TOOL_FAILED';
  readonly toolName: string;
  /** The chat the tool runs. */
  readonly chatId: string;
  readonly failure: ChatToolFailure;
  /** `cycle`: the chats whose runs wait on the call, each on the next, from the called chat (`chatId`) to the calling one. */
  readonly chain?: string[];
  /** `pending`: the calls its run left, now cancelled. */
  readonly calls?: ToolCall[];

  constructor(fields: { toolName: string; chatId: string; failure: ChatToolFailure; chain?: string[]; calls?: ToolCall[] }) {
    super(
      fields.failure === 'cycle' ? `Chat ${fields.chatId} is waiting on "${fields.toolName}" itself` : `"${fields.toolName}" left calls no one could answer (cancelled): ${fields.calls?.map((c) => c.name)}`,
    );
    this.toolName = fields.toolName;
    this.chatId = fields.chatId;
    this.failure = fields.failure;
    if (fields.chain) this.chain = fields.chain;
    if (fields.calls) this.calls = fields.calls;
  }
}

export const isChatToolError = codeGuard<ChatToolError>('CHAT_TOOL_FAILED');
