import { TabAgentError, codeGuard } from './base.js';

/** The chat was closed (`chat.close()`), or deleted. A closed agent is AgentClosedError. */
export class ChatClosedError extends TabAgentError {
  override readonly name = 'ChatClosedError';
  readonly code = 'CHAT_CLOSED';
  readonly chatId: string;

  constructor(chatId: string) {
    super(`Chat ${chatId} is closed.`);
    this.chatId = chatId;
  }
}

export const isChatClosedError = codeGuard<ChatClosedError>('CHAT_CLOSED');
