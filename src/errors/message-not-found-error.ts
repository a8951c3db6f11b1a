import { TabAgentError, codeGuard } from './base.js';

/**
 * No message of the chat is the one asked for: an index past the chat's end
 * (`chat.rewind`, `edit`, `regenerate({ from })`), or a message useChat names
 * that the stored chat does not hold (tabagent/ai-sdk).
 */
export class MessageNotFoundError extends TabAgentError {
  override readonly name = 'MessageNotFoundError';
  readonly code = 'MESSAGE_NOT_FOUND';
  readonly chatId: string;
  /** The index in `chat.messages` asked for (the Chat API). */
  readonly index?: number;
  /** The UI message id asked for (useChat, through tabagent/ai-sdk). */
  readonly messageId?: string;

  constructor(chatId: string, which: { index: number } | { messageId: string }) {
    super('index' in which ? `Chat "${chatId}" has no message at index ${String(which.index)}.` : `Chat "${chatId}" holds no message "${which.messageId}".`);
    this.chatId = chatId;
    if ('index' in which) this.index = which.index;
    else this.messageId = which.messageId;
  }
}

export const isMessageNotFoundError = codeGuard<MessageNotFoundError>('MESSAGE_NOT_FOUND');
