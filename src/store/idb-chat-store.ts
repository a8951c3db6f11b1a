// Chats in IndexedDB, through idb. Rules (FAULTS S1, S3, S5, S7):
// - Everything a write needs is prepared before its transaction opens; inside
//   it there are only IndexedDB requests (a transaction commits on its own at
//   the first macrotask without one).
// - A failed write aborts its whole transaction and surfaces the request's own
//   error (the quota, the clone failure), not a bare AbortError.
// - Writes ask for strict durability.
// - A connection the browser dropped is reopened once; one closed because a
//   newer tab upgraded the database is not (this page must reload).
//
// Why a commit reads the chat's record, and when it need not. A commit names
// the version its writer saw, and is refused if the stored one differs
// (another tab wrote meanwhile). Without Web Locks (plain http on a LAN
// address) tabs do not exclude each other, and a tab that closed mid-answer
// leaves a draft without a new version, so a commit reads the record in its
// own transaction (the only place the check is atomic with the write). It
// does not wait for that read: from the record this store last wrote or read
// at the expected version, the messages and the new record are written
// beside the read (IndexedDB runs a transaction's requests in order and
// commits only after each has had its success event, so a failed check, in
// the read's own success event, aborts them all), and once the check passes
// the transaction is committed explicitly rather than when this page next
// goes idle.
// A writer holding the chat's Web Lock says so (`meta.owner`, one object per
// hold). Every writer of a stored chat takes that lock (runs, rewinds,
// renames, deletion), so under one hold nobody else writes the chat, and
// once a commit under it has read and checked the record, the next ones
// under the same hold write from this store's copy and commit at once: one
// round trip and one request fewer each, which is most of what a stored hop
// costs beyond the same hop in memory (docs/performance.md, "The stored
// hop"). The first commit of each hold still reads (another tab may have
// written, or left a draft, before it), and so does the first after a rename
// (one made under the hold, by a tool naming its own chat, may land between
// two commits). Known limit: a tab still running an earlier release deletes
// a chat without the lock.
import { unwrap, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { ChatMessage } from '../shared/chat.js';
import { ChatNotFoundError, StorageError } from '../errors/index.js';
import { StaleChatError } from './stale-chat-error.js';
import { openDatabase, type ClosedReason } from './open-database.js';
import type { ChatChanges, ChatRecord, ChatStore, ChatSummary, CommitMeta, StoredChat } from './records.js';
import type { TabAgentDB } from './schema.js';
import { storageFailure } from './storage-failure.js';

type WriteTx = IDBPTransaction<TabAgentDB, StoreNames<TabAgentDB>[], 'readwrite'>;

const STORES: StoreNames<TabAgentDB>[] = ['chats', 'messages'];

function messageRange(chatId: string, from = 0): IDBKeyRange {
  return IDBKeyRange.bound([chatId, from], [chatId, Infinity]);
}

/**
 * A transaction's own object store, not idb's wrapper, for writes whose
 * results nobody reads: a failed one aborts the transaction, and `tx.done`
 * rejects with its error, so each goes without a promise and two listeners
 * of its own (a hop's commits make a handful).
 */
function rawStore(tx: WriteTx, name: StoreNames<TabAgentDB>): IDBObjectStore {
  return unwrap(tx).objectStore(name);
}

/**
 * The stored record, if a commit expecting `meta.expectedVersion` may go on
 * it; `known`: the record the commit's writes were made from, before this
 * read arrived. Every write bumps the version but saveDraft, whose draft is
 * checked here; the counts are checked too, against a chat deleted and
 * imported again at the same version.
 */
function checked(chatId: string, meta: CommitMeta, found: ChatRecord | undefined, known: ChatRecord | undefined): ChatRecord {
  if (!found) throw new ChatNotFoundError(chatId);
  if (found.version !== meta.expectedVersion) throw new StaleChatError(chatId, meta.expectedVersion, found.version);
  if (found.draft && !meta.endsDraft) throw new StaleChatError(chatId, meta.expectedVersion, found.version, true);
  if (known && (found.createdAt !== known.createdAt || found.messageCount !== known.messageCount || (found.rewound ?? 0) !== (known.rewound ?? 0))) {
    throw new StaleChatError(chatId, meta.expectedVersion, found.version);
  }
  return found;
}

export class IdbChatStore implements ChatStore {
  readonly kind = 'indexeddb';
  #db: IDBPDatabase<TabAgentDB> | null = null;
  #closed: ClosedReason | null = null;
  /**
   * Each chat's record as this store last wrote or read it, and the hold on
   * the chat's lock it was written or checked under (see the header).
   */
  readonly #known = new Map<string, { record: ChatRecord; owner?: object }>();

  private constructor(
    readonly dbName: string,
    private readonly blockedTimeoutMs: number,
  ) {}

  static async open(dbName: string, blockedTimeoutMs?: number): Promise<IdbChatStore> {
    const store = new IdbChatStore(dbName, blockedTimeoutMs ?? 5000);
    await store.#database();
    return store;
  }

  async #database(): Promise<IDBPDatabase<TabAgentDB>> {
    if (this.#closed === 'versionchange') {
      throw new StorageError('the chat database was upgraded by a newer version of this app in another tab; reload this page');
    }
    if (this.#db && !this.#closed) return this.#db;
    this.#closed = null;
    this.#db = await openDatabase({
      dbName: this.dbName,
      blockedTimeoutMs: this.blockedTimeoutMs,
      onClosed: (reason) => {
        this.#closed = reason;
      },
    });
    return this.#db;
  }

  /** Run `body` in one read-write transaction over both stores; all or nothing. */
  async #write<T>(body: (tx: WriteTx) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const db = await this.#database();
      let tx: WriteTx;
      try {
        tx = db.transaction(STORES, 'readwrite', { durability: 'strict' });
      } catch (cause) {
        // The connection closed under us (S5): reopen once.
        if (attempt === 0 && (cause as Error)?.name === 'InvalidStateError' && this.#closed !== 'versionchange') {
          this.#closed = 'terminated';
          continue;
        }
        throw storageFailure(cause);
      }
      try {
        const [result] = await Promise.all([body(tx), tx.done]);
        return result;
      } catch (cause) {
        const real = tx.error ?? cause;
        try {
          tx.abort();
        } catch {
          // Already aborted or finished.
        }
        throw storageFailure(real);
      }
    }
  }

  async #read<T>(read: (db: IDBPDatabase<TabAgentDB>) => Promise<T>): Promise<T> {
    try {
      return await read(await this.#database());
    } catch (cause) {
      throw storageFailure(cause);
    }
  }

  async create(record: ChatRecord): Promise<void> {
    await this.#write(async (tx) => {
      await tx.objectStore('chats').add(record);
    });
    this.#known.set(record.id, { record: { ...record } });
  }

  append(chatId: string, messages: ChatMessage[], meta: CommitMeta): Promise<number> {
    return this.#change(chatId, meta, (store, record) => {
      messages.forEach((message, i) => store.put({ chatId, seq: record.messageCount + i, message }));
      record.messageCount += messages.length;
    });
  }

  /**
   * One commit, in one transaction: the messages edited, the pending turn's
   * state set, the draft ended, the version bumped. Under the hold that last
   * wrote or checked the record, written from this store's copy at once;
   * otherwise the stored record is read and checked in the same transaction,
   * the writes made beside that read when this store's copy is at the
   * expected version (see the header), and a failed check aborts them all.
   */
  #change(chatId: string, meta: CommitMeta, edit: (messages: IDBObjectStore, record: ChatRecord) => void): Promise<number> {
    const known = this.#known.get(chatId);
    const base = known?.record.version === meta.expectedVersion ? known.record : undefined;
    const held = base !== undefined && meta.owner !== undefined && known?.owner === meta.owner;
    return this.#write(async (tx) => {
      const stored = held ? undefined : tx.objectStore('chats').get(chatId).then((found) => checked(chatId, meta, found, base));
      // Awaited below; until then a write that throws must not leave it unhandled.
      stored?.catch(() => undefined);
      const record = base ? { ...base } : await stored!;
      edit(rawStore(tx, 'messages'), record);
      record.updatedAt = meta.updatedAt;
      record.answers = meta.answers;
      record.started = meta.started ?? [];
      record.awaiting = meta.awaiting ?? [];
      if (meta.kept && Object.keys(meta.kept).length) record.kept = meta.kept;
      else delete record.kept;
      delete record.draft;
      if (meta.title && !record.title) record.title = meta.title;
      record.version++;
      rawStore(tx, 'chats').put(record);
      // Every request is made: once the check has passed (or none is needed)
      // nothing can refuse the write, so it commits now, not when this page
      // next goes idle.
      if (stored) await stored;
      tx.commit();
      return record;
    }).then(
      (record) => {
        this.#known.set(chatId, { record, owner: meta.owner });
        return record.version;
      },
      (error: unknown) => {
        this.#known.delete(chatId);
        throw error;
      },
    );
  }

  saveDraft(chatId: string, text: string): Promise<void> {
    return this.#write(async (tx) => {
      const chats = tx.objectStore('chats');
      const record = await chats.get(chatId);
      if (!record) throw new ChatNotFoundError(chatId);
      record.draft = { text, updatedAt: Date.now() };
      await chats.put(record);
    });
  }

  rewind(chatId: string, count: number, messages: ChatMessage[], meta: CommitMeta): Promise<number> {
    return this.#change(chatId, meta, (store, record) => {
      store.delete(messageRange(chatId, count));
      const from = Math.min(record.messageCount, count);
      messages.forEach((message, i) => store.put({ chatId, seq: from + i, message }));
      record.messageCount = from + messages.length;
      record.rewound = (record.rewound ?? 0) + 1;
    });
  }


  async get(chatId: string): Promise<ChatRecord | undefined> {
    const record = await this.#read((db) => db.get('chats', chatId));
    if (record) this.#known.set(chatId, { record: structuredClone(record) });
    else this.#known.delete(chatId);
    return record;
  }

  messages(chatId: string, from = 0): Promise<ChatMessage[]> {
    return this.#read(async (db) => (await db.getAll('messages', messageRange(chatId, from))).map((r) => r.message));
  }

  list(): Promise<ChatSummary[]> {
    return this.#read(async (db) => {
      const records = await db.getAllFromIndex('chats', 'updatedAt');
      return records.reverse().map(({ id, title, createdAt, updatedAt, messageCount }) => ({ id, title, createdAt, updatedAt, messageCount }));
    });
  }

  update(chatId: string, changes: ChatChanges): Promise<number> {
    // From now on a commit cannot go on this store's copy unchecked: one made
    // before this lands (a rename while the chat's own run holds its lock)
    // reads the record and finds this write.
    this.#known.delete(chatId);
    return this.#write(async (tx) => {
      const chats = tx.objectStore('chats');
      const record = await chats.get(chatId);
      if (!record) throw new ChatNotFoundError(chatId);
      Object.assign(record, changes);
      record.version++;
      await chats.put(record);
      return record;
    }).then(
      (record) => {
        this.#known.set(chatId, { record: structuredClone(record) });
        return record.version;
      },
      (error: unknown) => {
        this.#known.delete(chatId);
        throw error;
      },
    );
  }

  delete(chatId: string): Promise<void> {
    this.#known.delete(chatId);
    return this.#write(async (tx) => {
      await Promise.all([tx.objectStore('chats').delete(chatId), tx.objectStore('messages').delete(messageRange(chatId))]);
    });
  }

  insert({ record, messages }: StoredChat): Promise<string> {
    return this.#write(async (tx) => {
      const chats = tx.objectStore('chats');
      // Looked up in the same transaction as the write, so no chat made meanwhile is overwritten.
      const id = (await chats.getKey(record.id)) === undefined ? record.id : crypto.randomUUID();
      rawStore(tx, 'chats').add({ ...record, id, messageCount: messages.length });
      const store = rawStore(tx, 'messages');
      messages.forEach((message, seq) => store.put({ chatId: id, seq, message }));
      return id;
    });
  }

  close(): void {
    this.#known.clear();
    this.#db?.close();
    this.#db = null;
  }
}
