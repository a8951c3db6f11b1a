// Rewinding a chat to a message: rewind, edit, and regenerate({ from }).
// Each is one write (IndexedDB all or nothing), under the chat's
// one-at-a-time rules, seen by other tabs, and the next request's prompt is
// the old one up to the message it went back to.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { isInvalidOptionsError, isMessageNotFoundError, isPendingToolCallsError, isStorageQuotaError } from '../errors/index.js';
import type { ChatMessage } from '../shared/chat.js';
import { IdbChatStore } from '../store/idb-chat-store.js';
import { TabSync } from '../store/tab-sync.js';
import { localAgent } from '../test-support/local-chat.js';
import { toolCallText } from '../testing/calls.js';
import type { FakeRequest } from '../rpc/worker-protocol.js';
import { rawTool } from '../tools/define-tool.js';

/** Each answer names the request it answers, so a new answer never looks like the old one. */
const answers = (r: FakeRequest) => `${r.turn}: re ${r.last}`;

const shown = (messages: readonly ChatMessage[]) => messages.map((m) => (m.role === 'user' ? m.content : m.role === 'assistant' ? m.text : 'tool'));

/** A chat of two exchanges: [Hi, 0: re Hi, Weather?, 1: re Weather?]. */
async function twoExchanges(store?: IdbChatStore) {
  const { agent, fake } = await localAgent(answers, store);
  const chat = await agent.newChat();
  await chat.send('Hi');
  await chat.send('Weather?');
  return { agent, fake, chat };
}

describe('chat.rewind', () => {
  it('drops the message and everything after it, stored and here, and the chat goes on from there', async () => {
    const { agent, chat } = await twoExchanges();
    await chat.rewind(2);
    expect(shown(chat.messages)).toEqual(['Hi', '0: re Hi']);
    expect(shown((await agent.openChat(chat.id)).messages)).toEqual(['Hi', '0: re Hi']);
    expect((await chat.send('Time?')).text).toBe('2: re Time?');
    agent.close();
  });

  it('refuses an index that names no message (MessageNotFoundError), or one that is not a user message, changing nothing', async () => {
    const search = rawTool({ name: 'search', description: 'Search', parameters: { type: 'object', properties: {} } });
    const { agent } = await localAgent([toolCallText('search', {})]);
    const chat = await agent.newChat({ tools: [search] });
    await chat.send('Find it');
    await chat.cancelToolCalls();
    for (const index of [3, -1, 1.5, Number.NaN]) {
      const error = await chat.rewind(index).catch((e) => e);
      expect(isMessageNotFoundError(error), String(index)).toBe(true);
      expect(error).toMatchObject({ chatId: chat.id, index });
    }
    expect(await chat.rewind('0' as unknown as number).catch((e) => e)).toMatchObject({ name: 'InvalidOptionsError', option: 'index' });
    expect(isInvalidOptionsError(await chat.rewind(2).catch((e) => e))).toBe(true);
    expect(isInvalidOptionsError(await chat.rewind(1).catch((e) => e))).toBe(true);
    expect(shown(chat.messages)).toEqual(['Find it', '', 'tool']);
    expect(shown(await agent.openChat(chat.id, { allowMissingTools: true }).then((c) => c.messages))).toEqual(['Find it', '', 'tool']);
    agent.close();
  });

  it('refuses while calls wait for an answer (PendingToolCallsError), as a new message would be', async () => {
    const search = rawTool({ name: 'search', description: 'Search', parameters: { type: 'object', properties: {} } });
    const { agent } = await localAgent([toolCallText('search', {})]);
    const chat = await agent.newChat({ tools: [search] });
    await chat.send('Find it');
    expect(isPendingToolCallsError(await chat.rewind(0).catch((e) => e))).toBe(true);
    expect(isPendingToolCallsError(await chat.edit(0, 'Find that').catch((e) => e))).toBe(true);
    expect(isPendingToolCallsError(await chat.regenerate({ from: 1 }).catch((e) => e))).toBe(true);
    expect(chat.messages.length).toBe(2);
    expect(chat.pendingToolCalls.length).toBe(1);
    agent.close();
  });
});

describe('chat.edit', () => {
  it('puts the new text in the place of a user message, drops what came after it, and the model answers it', async () => {
    const { agent, fake, chat } = await twoExchanges();
    const reply = await chat.edit(2, 'Time?');
    expect(reply.text).toBe('2: re Time?');
    expect(shown(chat.messages)).toEqual(['Hi', '0: re Hi', 'Time?', '2: re Time?']);
    expect(shown((await agent.openChat(chat.id)).messages)).toEqual(['Hi', '0: re Hi', 'Time?', '2: re Time?']);
    // The prompt up to the edited message is the one the model read before, byte for byte: its KV prefix holds.
    expect(fake.requests[2]!.prompt).toBe(fake.requests[1]!.prompt.replace('Weather?', 'Time?'));
    agent.close();
  });

  it('refuses a message that is not the user\'s, or an index past the end, changing nothing', async () => {
    const { agent, chat } = await twoExchanges();
    expect(isInvalidOptionsError(await chat.edit(1, 'x').catch((e) => e))).toBe(true);
    expect(isMessageNotFoundError(await chat.edit(4, 'x').catch((e) => e))).toBe(true);
    expect(isInvalidOptionsError(await chat.edit(0, ' ').catch((e) => e))).toBe(true);
    expect(shown(chat.messages)).toEqual(['Hi', '0: re Hi', 'Weather?', '1: re Weather?']);
    agent.close();
  });

  it('is one write: when it fails (the disk is full), the stored chat and this one are as they were', async () => {
    const store = await IdbChatStore.open(`edit-${Math.random()}`);
    const { agent, chat } = await twoExchanges(store);
    const put = IDBObjectStore.prototype.put;
    const spy = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'messages') throw new DOMException('full', 'QuotaExceededError');
      return put.apply(this, args);
    });
    const error = await chat.edit(2, 'Time?').catch((e) => e).finally(() => spy.mockRestore());
    expect(isStorageQuotaError(error)).toBe(true);
    const before = ['Hi', '0: re Hi', 'Weather?', '1: re Weather?'];
    expect(shown(chat.messages)).toEqual(before);
    expect(shown(await store.messages(chat.id))).toEqual(before);
    expect(await store.get(chat.id)).toMatchObject({ messageCount: 4 });
    expect((await chat.edit(2, 'Time?')).text).toBe('2: re Time?');
    agent.close();
    store.close();
  });
});

describe('chat.regenerate({ from })', () => {
  it('writes an earlier answer again: it and everything after it dropped, the prompt the one that answer read', async () => {
    const { agent, fake, chat } = await twoExchanges();
    const reply = await chat.regenerate({ from: 1 });
    expect(reply.text).toBe('2: re Hi');
    expect(shown(chat.messages)).toEqual(['Hi', '2: re Hi']);
    expect(shown((await agent.openChat(chat.id)).messages)).toEqual(['Hi', '2: re Hi']);
    expect(fake.requests[2]!.prompt).toBe(fake.requests[0]!.prompt);
    agent.close();
  });

  it('refuses a user message (edit it instead), or an index past the end', async () => {
    const { agent, chat } = await twoExchanges();
    expect(isInvalidOptionsError(await chat.regenerate({ from: 2 }).catch((e) => e))).toBe(true);
    expect(isMessageNotFoundError(await chat.regenerate({ from: 4 }).catch((e) => e))).toBe(true);
    expect(chat.messages.length).toBe(4);
    agent.close();
  });
});

/** Web Locks as a browser keeps them for the tabs of one origin (Node has none): one holder per name, the rest wait in turn. */
function webLocks() {
  const held = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, options: { ifAvailable?: boolean }, callback: (lock: unknown) => Promise<T>): Promise<T> {
      if (options.ifAvailable && held.has(name)) return callback(null);
      const before = held.get(name) ?? Promise.resolve();
      const run = before.then(() => callback({ name }));
      const tail = run.catch(() => undefined);
      held.set(name, tail);
      void tail.then(() => held.get(name) === tail && held.delete(name));
      return run;
    },
  };
}

describe('another tab', () => {
  it('sees the rewind, even when the chat ends as long as it was', async () => {
    vi.stubGlobal('navigator', { locks: webLocks() });
    const name = `tabs-${Math.random()}`;
    const scope = `tabs-${Math.random()}`;
    const [storeA, storeB] = [await IdbChatStore.open(name), await IdbChatStore.open(name)];
    const a = await localAgent(answers, storeA, {}, new TabSync(scope, true));
    const b = await localAgent([], storeB, {}, new TabSync(scope, true));
    vi.unstubAllGlobals();
    const chat = await a.agent.newChat();
    await chat.send('Hi');
    await chat.send('Weather?');
    const inB = await b.agent.openChat(chat.id);
    expect(inB.messages.length).toBe(4);
    await chat.edit(2, 'Time?');
    await vi.waitFor(() => expect(shown(inB.messages)).toEqual(['Hi', '0: re Hi', 'Time?', '2: re Time?']));
    a.agent.close();
    b.agent.close();
    storeA.close();
    storeB.close();
  });
});
