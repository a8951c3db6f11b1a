import { isDatabaseBlockedError } from '../errors/index.js';
import { IdbChatStore } from './idb-chat-store.js';
import type { ChatStore } from './records.js';
import { DEFAULT_DB_NAME } from './schema.js';
import { messageOf } from '../errors/message-of.js';

export interface StorageOptions {
  /** The IndexedDB database (default 'tabagent'). */
  dbName?: string;
  /** Ask the browser to keep this site's storage (`navigator.storage.persist()`); the answer is in `agent.storage.persisted`. */
  persist?: boolean;
  /** How long to wait for other tabs to let go of an older database version (default 5000 ms). */
  blockedTimeoutMs?: number;
}

export interface StorageInfo {
  kind: 'indexeddb' | 'memory';
  dbName?: string;
  /**
   * Whether the browser keeps this site's storage until the user clears it
   * (`navigator.storage.persisted()`, asked again by `agent.checkStorage()`);
   * undefined where the browser cannot say.
   */
  persisted?: boolean;
  /** Bytes this site stores (app files, model weights, chats) and may store, from `navigator.storage.estimate()`: filled in by `agent.checkStorage()`. */
  usage?: number;
  quota?: number;
  /** Why chats are only in memory, when they are. */
  reason?: string;
}

/**
 * IndexedDB when it works; memory when asked (`storage: false`) or when
 * IndexedDB is unavailable (private modes, disabled storage). A database held
 * at an older version by another tab is an error, not a reason to forget chats.
 */
export async function openStore(options: false | StorageOptions | undefined): Promise<{ store: ChatStore; info: StorageInfo }> {
  if (options === false) return { store: await memoryStore(), info: { kind: 'memory', reason: 'storage: false' } };
  const dbName = options?.dbName ?? DEFAULT_DB_NAME;
  let store: ChatStore;
  try {
    if (typeof indexedDB === 'undefined') throw new Error('IndexedDB is not available in this context');
    store = await IdbChatStore.open(dbName, options?.blockedTimeoutMs);
  } catch (error) {
    if (isDatabaseBlockedError(error)) throw error;
    return { store: await memoryStore(), info: { kind: 'memory', reason: `IndexedDB is unavailable (${messageOf(error)}); chats last only as long as this page` } };
  }
  const info: StorageInfo = { kind: 'indexeddb', dbName };
  const persisted = options?.persist ? await askToPersist() : await isPersisted();
  if (persisted !== undefined) info.persisted = persisted;
  return { store, info };
}

/** Chats in memory, loaded only when asked for: most apps keep them in IndexedDB. */
export async function memoryStore(): Promise<ChatStore> {
  const { MemoryChatStore } = await import('./memory-chat-store.js');
  return new MemoryChatStore();
}

type StorageManagerLike = Partial<Pick<StorageManager, 'persist' | 'persisted' | 'estimate'>>;
const storageManager = (): StorageManagerLike | undefined => (globalThis.navigator as Navigator | undefined)?.storage;

/** Ask the browser to keep this site's storage; its answer (undefined where it cannot say). */
export async function askToPersist(): Promise<boolean | undefined> {
  return storageManager()?.persist?.().catch(() => undefined);
}

async function isPersisted(): Promise<boolean | undefined> {
  return storageManager()?.persisted?.().catch(() => undefined);
}

/** `info` as the browser sees it now: persisted (asked again, since the app or the browser may have changed it), usage and quota. */
export async function currentStorage(info: StorageInfo): Promise<StorageInfo> {
  const [persisted, estimate] = await Promise.all([isPersisted(), storageManager()?.estimate?.().catch(() => undefined)]);
  const now: StorageInfo = { ...info };
  if (info.kind === 'indexeddb' && persisted !== undefined) now.persisted = persisted;
  if (estimate?.usage !== undefined) now.usage = estimate.usage;
  if (estimate?.quota !== undefined) now.quota = estimate.quota;
  return now;
}
