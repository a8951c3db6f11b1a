// Both stores: a commit ends the chat's draft, so one whose writer did not keep
// that draft (`endsDraft`) is refused while it is there, changing nothing: the
// draft is another writer's half-written answer, never to be dropped unseen.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../shared/chat.js';
import { IdbChatStore } from './idb-chat-store.js';
import { MemoryChatStore } from './memory-chat-store.js';
import type { ChatRecord, ChatStore } from './records.js';
import { StaleChatError } from './stale-chat-error.js';

const record: ChatRecord = {
  id: 'a',
  title: '',
  createdAt: 1,
  updatedAt: 1,
  messageCount: 0,
  version: 0,
  settings: { maxToolHops: 5, maxConcurrentTools: 1, toolChoice: 'auto', maxResultChars: 8000 },
  tools: [],
  answers: [],
};
const user = (content: string): ChatMessage => ({ role: 'user', content, createdAt: 1 });

describe.each([
  ['memory', async (): Promise<ChatStore> => new MemoryChatStore()],
  ['IndexedDB', async (): Promise<ChatStore> => IdbChatStore.open(`left-draft-${Math.random()}`)],
])('the %s store, with a draft kept', (_, open) => {
  async function withDraft() {
    const store = await open();
    await store.create(record);
    await store.append('a', [user('Tell me a story')], { expectedVersion: 0, answers: [], updatedAt: 2 });
    await store.saveDraft('a', 'Once upon a time');
    return store;
  }

  it.each([
    ['append', (s: ChatStore) => s.append('a', [user('Are you there?')], { expectedVersion: 1, answers: [], updatedAt: 3 })],
    ['rewind', (s: ChatStore) => s.rewind('a', 0, [], { expectedVersion: 1, answers: [], updatedAt: 3 })],
  ])('refuses %s as stale unless it ends its own draft, changing nothing', async (__, write) => {
    const store = await withDraft();
    const error = await write(store).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StaleChatError);
    expect((error as Error).message).toMatch(/unfinished/);
    expect(await store.get('a')).toMatchObject({ version: 1, messageCount: 1, draft: { text: 'Once upon a time' } });
    expect(await store.messages('a')).toHaveLength(1);
    store.close();
  });

  it('takes a commit that ends the draft, and clears it', async () => {
    const store = await withDraft();
    const turn: ChatMessage = { role: 'assistant', raw: 'Once upon a time', text: 'Once upon a time', reasoning: '', toolCalls: [], finishReason: 'abort', createdAt: 2 };
    expect(await store.append('a', [turn], { expectedVersion: 1, answers: [], updatedAt: 3, endsDraft: true })).toBe(2);
    expect((await store.get('a'))!.draft).toBeUndefined();
    store.close();
  });
});
