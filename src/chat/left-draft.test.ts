// The answer a closed tab was writing is kept on the chat's record as a draft.
// Whoever commits next ends that draft; it must first keep it as the
// interrupted answer, as openChat does, also a tab that had the chat open all
// along and never reopened it.
import { describe, expect, it } from 'vitest';
import { isStorageError, StorageError } from '../errors/index.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import type { CommitMeta } from '../store/records.js';
import { localAgent } from '../test-support/local-chat.js';
import type { ChatMessage } from '../shared/chat.js';

const story = 'Once upon a time, a lighthouse keeper';
const shown = (messages: readonly ChatMessage[]) =>
  messages.map((m) => (m.role === 'user' ? `user: ${m.content}` : m.role === 'assistant' ? `${m.finishReason}: ${m.text}` : 'tool'));

/** What tab B leaves when it closes mid-answer: its user message, committed, and the answer so far. */
async function tabBCloses(store: MemoryChatStore, chatId: string, expectedVersion: number) {
  await store.append(chatId, [{ role: 'user', content: 'Tell me a story', createdAt: 1 }], { expectedVersion, answers: [], updatedAt: 1 });
  await store.saveDraft(chatId, story);
}

describe('a draft left by a closed tab, in a tab that already had the chat open', () => {
  it('sending again keeps it as the interrupted answer (the tab’s copy was behind)', async () => {
    const store = new MemoryChatStore();
    const { agent } = await localAgent(['Still here.'], store);
    const chat = await agent.newChat();
    await tabBCloses(store, chat.id, 0);

    const reply = await chat.send('Are you there?');
    expect(reply.text).toBe('Still here.');
    const expected = ['user: Tell me a story', `abort: ${story}`, 'user: Are you there?', 'stop: Still here.'];
    expect(shown(chat.messages)).toEqual(expected);
    expect(shown(await store.messages(chat.id))).toEqual(expected);
    expect((await store.get(chat.id))!.draft).toBeUndefined();
  });

  it('sending again keeps it as the interrupted answer (the tab’s copy was current: opened before the answer started)', async () => {
    const store = new MemoryChatStore();
    const { agent } = await localAgent(['Still here.'], store);
    const { id } = await agent.newChat();
    await store.append(id, [{ role: 'user', content: 'Tell me a story', createdAt: 1 }], { expectedVersion: 0, answers: [], updatedAt: 1 });
    // This tab opens the chat now: nothing is being written yet.
    const chat = await agent.openChat(id);
    await store.saveDraft(id, story);

    await chat.send('Are you there?');
    const expected = ['user: Tell me a story', `abort: ${story}`, 'user: Are you there?', 'stop: Still here.'];
    expect(shown(chat.messages)).toEqual(expected);
    expect(shown(await store.messages(id))).toEqual(expected);
  });

  it('regenerate() replaces it, as it replaces any interrupted answer', async () => {
    const store = new MemoryChatStore();
    const { agent } = await localAgent(['First answer.', 'A better story.'], store);
    const chat = await agent.newChat();
    await chat.send('Tell me a story');
    // Tab B regenerated: the old answer is dropped, the new one was half written when B closed.
    await store.rewind(chat.id, 1, [], { expectedVersion: 2, answers: [], updatedAt: 2 });
    await store.saveDraft(chat.id, story);

    const again = await chat.regenerate();
    expect(again.text).toBe('A better story.');
    expect(shown(chat.messages)).toEqual(['user: Tell me a story', 'stop: A better story.']);
    expect((await store.get(chat.id))!.draft).toBeUndefined();
  });

  it('the run’s own draft is ended by its own answer, not kept as an interrupted one', async () => {
    const store = new MemoryChatStore();
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const { agent } = await localAgent([{ text: words, tokenDelayMs: 10 }], store);
    const chat = await agent.newChat();
    const drafts: string[] = [];
    const save = store.saveDraft.bind(store);
    store.saveDraft = (chatId, text) => (drafts.push(text), save(chatId, text));
    expect((await chat.send('Tell me a story')).text).toBe(words);
    expect(drafts.length).toBeGreaterThan(0);
    expect(shown(await store.messages(chat.id))).toEqual(['user: Tell me a story', `stop: ${words}`]);
  });

  it('a run whose answer could not be stored leaves its draft; the next send keeps it as the interrupted answer', async () => {
    class FailingStore extends MemoryChatStore {
      failNext = false;
      override async append(chatId: string, messages: ChatMessage[], meta: CommitMeta) {
        if (this.failNext && messages.some((m) => m.role === 'assistant')) throw ((this.failNext = false), new StorageError('disk on fire'));
        return super.append(chatId, messages, meta);
      }
    }
    const store = new FailingStore();
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const { agent } = await localAgent([{ text: words, tokenDelayMs: 10 }, 'Here again.'], store);
    const chat = await agent.newChat();
    store.failNext = true;
    expect(isStorageError(await chat.send('Tell me a story').catch((e) => e))).toBe(true);
    const { draft } = (await store.get(chat.id))!;
    expect(draft!.text.length).toBeGreaterThan(0);

    await chat.send('Hello?');
    expect(shown(chat.messages)).toEqual(['user: Tell me a story', `abort: ${draft!.text}`, 'user: Hello?', 'stop: Here again.']);
    expect(shown(await store.messages(chat.id))).toEqual(shown(chat.messages));
  });
});
