// MemoryChats with its faults imported: for code that has them at hand anyway
// (tests, test support). The package loads MemoryChats on demand instead (open-store.ts).
import { ChatNotFoundError } from '../errors/index.js';
import { MemoryChats } from './memory-chats.js';
import { StaleChatError } from './stale-chat-error.js';
import { storageFailure } from './storage-failure.js';

export class MemoryChatStore extends MemoryChats {
  constructor() {
    super({ ChatNotFoundError, StaleChatError, storageFailure });
  }
}
