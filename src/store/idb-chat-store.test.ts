import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../shared/chat.js';
import { isChatNotFoundError, isDatabaseBlockedError, isStorageError, isStorageQuotaError } from '../errors/index.js';
import { IdbChatStore } from './idb-chat-store.js';
import { openDatabase } from './open-database.js';
import type { ChatRecord } from './records.js';
import { StaleChatError } from './stale-chat-error.js';
import { storageFailure } from './storage-failure.js';

let n = 0;
const freshName = () => `test-db-${++n}-${Math.random()}`;

const record = (id: string, updatedAt = 1): ChatRecord => ({
  id,
  title: '',
  createdAt: 1,
  updatedAt,
  messageCount: 0,
  version: 0,
  settings: { maxToolHops: 5, maxConcurrentTools: 1, toolChoice: 'auto', maxResultChars: 8000 },
  tools: [{ name: 'get_weather', kind: 'managed' }],
  answers: [],
});
const user = (content: string): ChatMessage => ({ role: 'user', content, createdAt: 1 });

describe('the IndexedDB chat store', () => {
  it('appends messages as records of their own, in order', async () => {
    const name = freshName();
    const store = await IdbChatStore.open(name);
    await store.create(record('a'));
    expect(await store.append('a', [user('one'), user('two')], { expectedVersion: 0, answers: [], updatedAt: 5, title: 'One' })).toBe(1);
    expect(await store.append('a', [user('three')], { expectedVersion: 1, answers: [], updatedAt: 6, title: 'ignored: has a title' })).toBe(2);
    expect((await store.messages('a')).map((m) => (m as { content: string }).content)).toEqual(['one', 'two', 'three']);
    expect((await store.messages('a', 2)).length).toBe(1);
    expect(await store.get('a')).toMatchObject({ messageCount: 3, version: 2, updatedAt: 6, title: 'One' });
    // One record per message, keyed [chatId, seq]: appending never rewrites the history.
    const raw = await openDB(name);
    expect(await raw.getAllKeys('messages')).toEqual([['a', 0], ['a', 1], ['a', 2]]);
    raw.close();
    store.close();
  });

  it('lists newest first, renames, deletes a chat and its messages', async () => {
    const store = await IdbChatStore.open(freshName());
    await store.create(record('old', 1));
    await store.create(record('new', 2));
    await store.append('old', [user('x')], { expectedVersion: 0, answers: [], updatedAt: 3 });
    expect((await store.list()).map((c) => c.id)).toEqual(['old', 'new']);
    await store.update('new', { title: 'Renamed' });
    expect((await store.get('new'))!.title).toBe('Renamed');
    await store.delete('old');
    expect((await store.list()).map((c) => c.id)).toEqual(['new']);
    expect(await store.messages('old')).toEqual([]);
    expect(isChatNotFoundError(await store.append('old', [user('y')], { expectedVersion: 1, answers: [], updatedAt: 4 }).catch((e) => e))).toBe(true);
    store.close();
  });

  it('writes all of a commit or none of it, and surfaces the real cause', async () => {
    const store = await IdbChatStore.open(freshName());
    await store.create(record('a'));
    await store.append('a', [user('kept')], { expectedVersion: 0, answers: [], updatedAt: 2 });
    const unstorable = { role: 'user', content: 'x', createdAt: 1, handler: () => 1 } as unknown as ChatMessage;
    const error = await store.append('a', [user('first of two'), unstorable], { expectedVersion: 1, answers: [], updatedAt: 3 }).catch((e) => e);
    expect(isStorageError(error)).toBe(true);
    expect(error.message).toMatch(/DataCloneError/);
    expect(await store.get('a')).toMatchObject({ messageCount: 1, version: 1, updatedAt: 2 });
    expect((await store.messages('a')).length).toBe(1);
    store.close();
  });

  it('refuses a write based on an old version, changing nothing', async () => {
    const store = await IdbChatStore.open(freshName());
    await store.create(record('a'));
    await store.append('a', [user('from tab one')], { expectedVersion: 0, answers: [], updatedAt: 2 });
    const error = await store.append('a', [user('from tab two, which had not seen it')], { expectedVersion: 0, answers: [], updatedAt: 3 }).catch((e) => e);
    expect(error).toBeInstanceOf(StaleChatError);
    expect((await store.messages('a')).length).toBe(1);
    store.close();
  });

  it('maps a full disk to StorageQuotaError', () => {
    expect(isStorageQuotaError(storageFailure(new DOMException('full', 'QuotaExceededError')))).toBe(true);
  });

  it('times out with DatabaseBlockedError when an older connection will not let go', async () => {
    const name = freshName();
    const stubborn = await openDB(name, 1); // ignores versionchange
    const error = await openDatabase({ dbName: name, version: 2, blockedTimeoutMs: 50, onClosed: () => undefined }).catch((e) => e);
    expect(isDatabaseBlockedError(error)).toBe(true);
    stubborn.close();
  });

  it('lets go when a newer version asks, then says this page must reload', async () => {
    const name = freshName();
    const store = await IdbChatStore.open(name);
    await store.create(record('a'));
    const newer = await openDB(name, 2); // would block forever if the store held on
    newer.close();
    const error = await store.list().catch((e) => e);
    expect(isStorageError(error)).toBe(true);
    expect(error.message).toMatch(/upgraded by a newer version.*reload/);
  });
});

describe('a commit on IndexedDB', () => {
  /** What the store asks of IndexedDB, in order, and when the chat record it reads arrives. */
  function watchRequests() {
    const log: string[] = [];
    const get = IDBObjectStore.prototype.get;
    const put = IDBObjectStore.prototype.put;
    const commit = IDBTransaction.prototype.commit;
    const spies = [
      vi.spyOn(IDBTransaction.prototype, 'commit').mockImplementation(function (this: IDBTransaction) {
        log.push('commit');
        commit.apply(this);
      }),
      vi.spyOn(IDBObjectStore.prototype, 'get').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['get']>) {
        log.push(`get ${this.name}`);
        const request = get.apply(this, args);
        request.addEventListener('success', () => log.push(`read ${this.name}`));
        return request;
      }),
      vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
        log.push(`put ${this.name}`);
        return put.apply(this, args);
      }),
    ];
    return { log, restore: () => spies.forEach((spy) => spy.mockRestore()) };
  }

  it('makes all its requests at once, and commits as soon as the version is checked: nothing waits for this page to go idle', async () => {
    const store = await IdbChatStore.open(freshName());
    await store.create(record('a'));
    await store.append('a', [user('one')], { expectedVersion: 0, answers: [], updatedAt: 2 });
    const watch = watchRequests();
    try {
      await store.append('a', [user('two')], { expectedVersion: 1, answers: [], updatedAt: 3 });
      await store.rewind('a', 1, [user('two, edited')], { expectedVersion: 2, answers: [], updatedAt: 4 });
    } finally {
      watch.restore();
    }
    // The version is still checked in each commit's own transaction, but its writes go with the read.
    // Without the explicit commit, IndexedDB commits once this page has taken every request's result and gone idle:
    // in a hop, after the next request is built and sent.
    expect(watch.log).toEqual(['get chats', 'put messages', 'put chats', 'read chats', 'commit', 'get chats', 'put messages', 'put chats', 'read chats', 'commit']);
    expect(await store.get('a')).toMatchObject({ messageCount: 2, version: 3, updatedAt: 4, rewound: 1 });
    expect((await store.messages('a')).map((m) => (m as { content: string }).content)).toEqual(['one', 'two, edited']);
    store.close();
  });

  it('under one hold of the chat\'s lock, reads the record once: the commits after write from its copy and commit at once', async () => {
    const store = await IdbChatStore.open(freshName());
    await store.create(record('a'));
    const [hold, nextHold] = [{}, {}];
    const watch = watchRequests();
    try {
      await store.append('a', [user('one')], { expectedVersion: 0, answers: [], updatedAt: 2, owner: hold });
      await store.append('a', [user('two')], { expectedVersion: 1, answers: [], updatedAt: 3, owner: hold });
      await store.rewind('a', 1, [user('two, edited')], { expectedVersion: 2, answers: [], updatedAt: 4, owner: hold });
      // The lock taken again: another tab may have written in between, so the record is checked again.
      await store.append('a', [user('three')], { expectedVersion: 3, answers: [], updatedAt: 5, owner: nextHold });
    } finally {
      watch.restore();
    }
    const checked = ['get chats', 'put messages', 'put chats', 'read chats', 'commit'];
    expect(watch.log).toEqual([...checked, 'put messages', 'put chats', 'commit', 'put messages', 'put chats', 'commit', ...checked]);
    expect(await store.get('a')).toMatchObject({ messageCount: 3, version: 4, updatedAt: 5, rewound: 1 });
    expect((await store.messages('a')).map((m) => (m as { content: string }).content)).toEqual(['one', 'two, edited', 'three']);
    store.close();
  });

  it('a rename under the hold, not yet landed, makes the next commit check: the title is never written over', async () => {
    const store = await IdbChatStore.open(freshName());
    await store.create(record('a'));
    const hold = {};
    await store.append('a', [user('one')], { expectedVersion: 0, answers: [], updatedAt: 2, owner: hold });
    const renamed = store.update('a', { title: 'Renamed' });
    const commit = store.append('a', [user('two')], { expectedVersion: 1, answers: [], updatedAt: 3, owner: hold }).catch((e) => e);
    expect(await renamed).toBe(2);
    expect(await commit).toMatchObject({ name: 'StaleChatError', expected: 1, actual: 2 });
    expect(await store.get('a')).toMatchObject({ title: 'Renamed', version: 2, messageCount: 1 });
    store.close();
  });

  it('checks again in a new hold, and refuses what another tab wrote since the last', async () => {
    const name = freshName();
    const [tabA, tabB] = [await IdbChatStore.open(name), await IdbChatStore.open(name)];
    await tabA.create(record('a'));
    await tabA.append('a', [user('from A')], { expectedVersion: 0, answers: [], updatedAt: 2, owner: {} });
    await tabB.append('a', [user('from B')], { expectedVersion: 1, answers: [], updatedAt: 3, owner: {} });
    const before = { record: await tabB.get('a'), messages: await tabB.messages('a') };
    expect(await tabA.append('a', [user('from A, on version 1')], { expectedVersion: 1, answers: [], updatedAt: 9, owner: {} }).catch((e) => e)).toMatchObject({ name: 'StaleChatError', expected: 1, actual: 2 });
    expect({ record: await tabB.get('a'), messages: await tabB.messages('a') }).toEqual(before);
    tabA.close();
    tabB.close();
  });

  it('still refuses, changing nothing, what another tab made stale: a commit, a rename, a left draft, a deletion', async () => {
    const name = freshName();
    const [tabA, tabB] = [await IdbChatStore.open(name), await IdbChatStore.open(name)];
    await tabA.create(record('a'));
    await tabA.append('a', [user('from A')], { expectedVersion: 0, answers: [], updatedAt: 2 });
    const stored = async () => ({ record: await tabB.get('a'), messages: await tabB.messages('a') });
    const commitInA = () => tabA.append('a', [user('from A, on version 1')], { expectedVersion: 1, answers: [], updatedAt: 9 }).catch((e) => e);

    await tabB.append('a', [user('from B')], { expectedVersion: 1, answers: [], updatedAt: 3 });
    let before = await stored();
    expect(await commitInA()).toMatchObject({ name: 'StaleChatError', expected: 1, actual: 2 });
    expect(await stored()).toEqual(before);

    // A copy that caught up (version 2) and another tab renames it.
    await tabA.get('a');
    await tabB.update('a', { title: 'Renamed in B' });
    before = await stored();
    expect(await tabA.append('a', [user('x')], { expectedVersion: 2, answers: [], updatedAt: 9 }).catch((e) => e)).toMatchObject({ name: 'StaleChatError', expected: 2, actual: 3 });
    expect(await stored()).toEqual(before);

    // A tab closed mid-answer: its draft (no new version) is not dropped unseen.
    await tabA.get('a');
    await tabB.saveDraft('a', 'half an answer');
    before = await stored();
    expect(await tabA.append('a', [user('x')], { expectedVersion: 3, answers: [], updatedAt: 9 }).catch((e) => e)).toMatchObject({ name: 'StaleChatError', draftLeft: true });
    expect(await stored()).toEqual(before);

    await tabB.delete('a');
    expect(isChatNotFoundError(await tabA.append('a', [user('x')], { expectedVersion: 3, answers: [], updatedAt: 9, endsDraft: true }).catch((e) => e))).toBe(true);
    expect(await tabB.messages('a')).toEqual([]);
    tabA.close();
    tabB.close();
  });
});
