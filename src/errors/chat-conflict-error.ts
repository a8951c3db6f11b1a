import { TabAgentError, codeGuard } from './base.js';

/**
 * Another tab (or another Chat object) changed this chat's conversation while
 * a run here was writing it: without Web Locks (plain http on a LAN address)
 * two tabs can both work on one chat. Nothing already written is replayed;
 * reopen the chat to see where it stands.
 */
export class ChatConflictError extends TabAgentError {
  override readonly name = 'ChatConflictError';
  readonly code = 'CHAT_CONFLICT';
  readonly chatId: string;

  constructor(chatId: string) {
    super(`Another tab changed chat ${chatId} while this one was writing it; nothing was written twice. Reopen the chat to go on.`);
    this.chatId = chatId;
  }
}

export const isChatConflictError = codeGuard<ChatConflictError>('CHAT_CONFLICT');
