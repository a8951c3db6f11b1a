import { StorageError, StorageQuotaError, isTabAgentError } from '../errors/index.js';
import { StaleChatError } from './stale-chat-error.js';
import { messageOf } from '../errors/message-of.js';

/** The typed error for a failed read or write, keeping the real cause. */
export function storageFailure(cause: unknown): Error {
  if (isTabAgentError(cause) || cause instanceof StaleChatError) return cause;
  const name = (cause as { name?: string })?.name;
  if (name === 'QuotaExceededError') return new StorageQuotaError({ cause });
  return new StorageError(`${name ?? 'Error'}: ${messageOf(cause)}`, { cause });
}
