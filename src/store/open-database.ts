// Opening the database without hanging: a blocked upgrade times out with a
// typed error, and this tab lets go when a newer one asks.
import { openDB, type IDBPDatabase } from 'idb';
import { DatabaseBlockedError, StorageError, isDatabaseBlockedError } from '../errors/index.js';
import { DB_VERSION, upgrade, type TabAgentDB } from './schema.js';
import { messageOf } from '../errors/message-of.js';

export type ClosedReason = 'versionchange' | 'deleted' | 'terminated';

export interface OpenOptions {
  dbName: string;
  /** For tests of upgrades; tabagent itself always opens DB_VERSION. */
  version?: number;
  blockedTimeoutMs?: number;
  /**
   * This connection closed: another tab upgraded the database (`versionchange`),
   * deleted it (`deleted`, as when storage is cleared), or the browser dropped it (`terminated`).
   */
  onClosed: (reason: ClosedReason) => void;
}

export function openDatabase(options: OpenOptions): Promise<IDBPDatabase<TabAgentDB>> {
  const { dbName, version = DB_VERSION, blockedTimeoutMs = 5000 } = options;
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const opening = openDB<TabAgentDB>(dbName, version, {
      upgrade,
      blocked() {
        // Another tab holds an older version open and has not let go.
        timer ??= setTimeout(() => {
          settled = true;
          reject(new DatabaseBlockedError(dbName, blockedTimeoutMs));
        }, blockedTimeoutMs);
      },
      blocking(_current, next) {
        // A newer tab wants to upgrade, or the database is being deleted: let go, so it is not blocked.
        db?.close();
        options.onClosed(next === null ? 'deleted' : 'versionchange');
      },
      terminated() {
        options.onClosed('terminated');
      },
    });
    let db: IDBPDatabase<TabAgentDB> | undefined;
    opening.then(
      (opened) => {
        clearTimeout(timer);
        db = opened;
        // Opened after we gave up: close it, nobody will use it.
        if (settled) opened.close();
        else resolve(opened);
      },
      (cause: unknown) => {
        clearTimeout(timer);
        if (!settled) reject(isDatabaseBlockedError(cause) ? cause : new StorageError(`cannot open the chat database: ${messageOf(cause)}`, { cause }));
      },
    );
  });
}
