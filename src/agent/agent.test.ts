import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  isChatClosedError,
  isChatNotFoundError,
  isInvalidChatExportError,
  isMissingToolsError,
  isStorageError,
  StorageError,
} from '../errors/index.js';
import { IdbChatStore } from '../store/idb-chat-store.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import type { CommitMeta } from '../store/records.js';
import { toolCallText as call } from '../testing/calls.js';
import { localAgent } from '../test-support/local-chat.js';
import { rawTool, tool } from '../tools/define-tool.js';
import type { ChatMessage } from '../shared/chat.js';

const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
const ask = rawTool({ name: 'ask_user', description: 'Ask the user', parameters: { type: 'object', properties: { q: { type: 'string' } } } });
const idb = () => IdbChatStore.open(`agent-test-${Math.random()}`);

describe('stored chats', () => {
  it('keeps every message as it happens, and lists chats newest first', async () => {
    const { agent, store } = await localAgent([call('add', { a: 1, b: 2 }), '3', 'bye'], await idb());
    const first = await agent.newChat({ tools: [add] });
    const second = await agent.newChat();
    await first.send('What is 1 + 2? Please answer with a number only, thanks a lot.');
    expect((await store.messages(first.id)).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const list = await agent.listChats();
    expect(list.map((c) => c.id)).toEqual([first.id, second.id]);
    expect(list[0]).toMatchObject({ title: 'What is 1 + 2? Please answer with a number only, thanks a l…', messageCount: 4 });
    await first.rename('Sums');
    expect((await agent.listChats())[0]!.title).toBe('Sums');
  });

  it('reopens a chat exactly, and the model continues from it', async () => {
    const store = await idb();
    const one = await localAgent([call('add', { a: 2, b: 3 }), 'It is 5.'], store);
    const chat = await one.agent.newChat({ system: 'Be exact.', tools: [add], maxToolHops: 2 });
    await chat.send('2 + 3?');
    // "After a reload": a new agent on the same database.
    const two = await localAgent(['Still 5.'], store);
    const again = await two.agent.openChat(chat.id, { tools: [add] });
    expect(again.messages).toEqual(chat.messages);
    expect(again.title).toBe('2 + 3?');
    await again.send('Sure?');
    const seen = two.fake.requests[0]!.messages;
    // The model reads the same conversation it wrote, byte for byte, plus the new message.
    expect(seen.slice(0, -1)).toEqual([...one.fake.requests[1]!.messages, { role: 'assistant', content: 'It is 5.' }]);
    expect(seen.at(-1)).toEqual({ role: 'user', content: 'Sure?' });
  });

  it('keeps a turn waiting for raw results across a reload, answers included', async () => {
    const store = await idb();
    const turn = `${call('ask_user', { q: 'Name?' })}\n${call('ask_user', { q: 'Age?' })}`;
    const one = await localAgent([turn], store);
    const chat = await one.agent.newChat({ tools: [ask] });
    const reply = await chat.send('Sign me up');
    await chat.sendToolResult(reply.toolCalls[0]!.id, 'Ada');
    const two = await localAgent(['Welcome, Ada (36).'], store);
    const again = await two.agent.openChat(chat.id, { tools: [ask] });
    expect(again.pendingToolCalls.map((c) => c.arguments)).toEqual([{ q: 'Age?' }]);
    const done = await again.sendToolResult(again.pendingToolCalls[0]!.id, 36);
    expect(done.text).toBe('Welcome, Ada (36).');
    expect(two.fake.requests[0]!.last).toBe('<tool_response>\n"Ada"\n</tool_response>\n<tool_response>\n36\n</tool_response>');
  });

  it('says which stored tools were not given again', async () => {
    const { agent } = await localAgent([]);
    const chat = await agent.newChat({ tools: [add, ask] });
    const error = await agent.openChat(chat.id, { tools: [ask] }).catch((e) => e);
    expect(isMissingToolsError(error)).toBe(true);
    expect(error.missing).toEqual(['add']);
    await expect(agent.openChat(chat.id, { tools: [ask], allowMissingTools: true })).resolves.toBeDefined();
  });

  it('allowMissingTools opens a chat whose stored toolChoice names a missing tool; the choice falls back to auto', async () => {
    const { agent, fake } = await localAgent(['Hello.']);
    const chat = await agent.newChat({ tools: [add, ask], toolChoice: { name: 'add' } });
    const reopened = await agent.openChat(chat.id, { tools: [ask], allowMissingTools: true });
    expect((await reopened.send('hi')).text).toBe('Hello.');
    expect(fake.requests[0]!.responseFormat).toMatchObject({ structural_tag: { format: { type: 'triggered_tags' } } });
  });

  it('a tool that deletes its own chat: the chat is gone at once, the run stops at its next write, nothing is written back', async () => {
    const store = await idb();
    const { agent } = await localAgent([call('forget_me', {}), 'never asked'], store);
    let chatId = '';
    const forget = tool({ name: 'forget_me', description: 'Delete this conversation', input: z.object({}), run: async () => (await agent.deleteChat(chatId), 'deleted') });
    const chat = await agent.newChat({ tools: [forget] });
    chatId = chat.id;
    // Before, the delete waited for the chat's lock, which the run holding it waited on: it never settled.
    const outcome = await Promise.race([chat.send('Forget this conversation').then(() => 'answered', (e: unknown) => e), new Promise((resolve) => setTimeout(() => resolve('hung'), 2000))]);
    expect(isChatNotFoundError(outcome)).toBe(true);
    expect(await store.get(chatId)).toBeUndefined();
    expect(await store.messages(chatId)).toEqual([]);
    expect(await agent.listChats()).toEqual([]);
  });

  it('a tool that renames its own chat: the run goes on, and the title is stored', async () => {
    const store = await idb();
    const { agent } = await localAgent([call('name_chat', { title: 'Trip to Lisbon' }), 'Named it.'], store);
    let chatId = '';
    const name = tool({ name: 'name_chat', description: 'Name this conversation', input: z.object({ title: z.string() }), run: async ({ title }) => (await chat.rename(title), 'done') });
    const chat = await agent.newChat({ tools: [name] });
    chatId = chat.id;
    // Before, the rename queued behind the run, which waited on the rename: it never settled.
    const outcome = await Promise.race([chat.send('Plan a trip').then((r) => r.text), new Promise((resolve) => setTimeout(() => resolve('hung'), 2000))]);
    expect(outcome).toBe('Named it.');
    expect((await store.get(chatId))!.title).toBe('Trip to Lisbon');
    expect((await store.messages(chatId)).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('deletes a chat and closes its open copies', async () => {
    const { agent } = await localAgent(['x']);
    const chat = await agent.newChat();
    await agent.deleteChat(chat.id);
    expect(await agent.listChats()).toEqual([]);
    expect(isChatClosedError(await chat.send('hi').catch((e) => e))).toBe(true);
    expect(isChatNotFoundError(await agent.openChat(chat.id).catch((e) => e))).toBe(true);
  });
});

describe('export and import', () => {
  it('round-trips a chat, under a new id when its id is taken', async () => {
    const { agent } = await localAgent([call('add', { a: 1, b: 1 }), '2'], await idb());
    const chat = await agent.newChat({ system: 'S', tools: [add] });
    await chat.send('1+1');
    const file = JSON.stringify(await agent.exportChat(chat.id));
    expect(JSON.parse(file)).toMatchObject({ format: 'tabagent.chat', version: 1 });
    const copy = await agent.importChat(file);
    expect(copy.id).not.toBe(chat.id);
    expect(copy.messageCount).toBe(4);
    const reopened = await agent.openChat(copy.id, { tools: [add] });
    // As written, but a file cannot show its turns are this engine's: the model reads them as data.
    expect(reopened.messages).toEqual(chat.messages.map((m) => (m.role === 'assistant' ? { ...m, foreign: true, writer: undefined } : m)));
    const elsewhere = await localAgent([], await idb());
    expect((await elsewhere.agent.importChat(JSON.parse(file))).id).toBe(chat.id);
  });

  it('keeps the chat\'s generation settings, stop sequences too', async () => {
    const { agent } = await localAgent(['Hi.'], await idb());
    const chat = await agent.newChat({ generation: { temperature: 0.2, stopSequences: [' END.'] } });
    await chat.send('hello');
    const elsewhere = await localAgent(['Fine END. then more'], await idb());
    const copy = await elsewhere.agent.importChat(JSON.stringify(await agent.exportChat(chat.id)));
    const reply = await (await elsewhere.agent.openChat(copy.id)).send('again');
    expect(elsewhere.fake.requests[0]).toMatchObject({ temperature: 0.2, stop: [' END.'] });
    expect(reply.text).toBe('Fine');
  });

  it('an import never overwrites a chat made between its check and its write', async () => {
    const store = await idb();
    const { agent } = await localAgent(['hi'], store);
    const chat = await agent.newChat();
    await chat.send('keep me');
    const file = await agent.exportChat(chat.id);
    // Another tab makes a chat under that id after the import looked (its first look finds the id free).
    const racing = new Proxy(store, {
      get: (target, key) => (key === 'get' ? async () => undefined : ((v) => (typeof v === 'function' ? v.bind(target) : v))(Reflect.get(target, key, target))),
    });
    const { agent: importer } = await localAgent([], racing);
    const copy = await importer.importChat(file);
    expect(copy.id).not.toBe(chat.id);
    expect((await store.messages(chat.id)).map((m) => (m.role === 'user' ? m.content : m.role))).toEqual(['keep me', 'assistant']);
  });

  it.each([
    ['not JSON', '{"format": "tabagent.chat", '],
    ['another format', { format: 'other', version: 1 }],
    ['a future version', { format: 'tabagent.chat', version: 99 }],
  ])('refuses %s, writing nothing', async (_, file) => {
    const { agent } = await localAgent([]);
    const error = await agent.importChat(file).catch((e) => e);
    expect(isInvalidChatExportError(error)).toBe(true);
    expect(await agent.listChats()).toEqual([]);
  });

  it('refuses broken or hostile contents with the place of each problem', async () => {
    const { agent } = await localAgent([call('add', { a: 1, b: 1 }), '2']);
    const chat = await agent.newChat({ tools: [add] });
    await chat.send('1+1');
    const good = await agent.exportChat(chat.id);
    const bad = structuredClone(good) as unknown as { messages: Array<Record<string, unknown>> };
    bad.messages[0]!.role = 'system';
    let error = await agent.importChat(bad).catch((e) => e);
    expect(isInvalidChatExportError(error)).toBe(true);
    expect(error.issues.join('\n')).toMatch(/^messages\.0/m);
    const orphan = structuredClone(good) as unknown as { messages: unknown[] };
    orphan.messages.splice(1, 1); // tool results without the calls they answer
    error = await agent.importChat(orphan).catch((e) => e);
    expect(error.issues).toEqual(['messages.1: tool results do not answer the calls of the message before']);
    const hostile = JSON.parse(JSON.stringify(good).replace('"chat":{', '"chat":{"__proto__":{"polluted":true},'));
    await agent.importChat(hostile);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await agent.listChats()).length).toBe(2);
  });
});

describe('a failed write in the middle of a hop', () => {
  class FailingStore extends MemoryChatStore {
    failOn = -1;
    #appends = 0;
    override async append(chatId: string, messages: ChatMessage[], meta: CommitMeta) {
      if (this.#appends++ === this.failOn) throw new StorageError('disk on fire');
      return super.append(chatId, messages, meta);
    }
  }

  it('rejects that send; the chat in memory matches what is stored, and the next send works', async () => {
    const store = new FailingStore();
    const { agent } = await localAgent([call('add', { a: 1, b: 2 }), 'never seen', 'fine again'], store);
    const chat = await agent.newChat({ tools: [add] });
    store.failOn = 1; // 0: the user message; 1: the hop's turn and its results, together
    const error = await chat.send('1+2?').catch((e) => e);
    expect(isStorageError(error)).toBe(true);
    expect(chat.messages).toEqual(await store.messages(chat.id));
    expect(chat.messages.map((m) => m.role)).toEqual(['user']);
    expect((await chat.send('still there?')).text).toBe('never seen');
  });
});

describe('two copies of one chat', () => {
  it('see each other’s messages and never interleave', async () => {
    const { agent, store } = await localAgent((r) => `echo ${r.last}`, new MemoryChatStore());
    const a = await agent.newChat();
    const b = await agent.openChat(a.id);
    const changed = new Promise((resolve) => b.on('messages', resolve));
    await Promise.all([a.send('from a'), b.send('from b')]);
    await changed;
    const contents = (await store.messages(a.id)).map((m) => (m.role === 'user' ? m.content : m.role === 'assistant' ? m.text : ''));
    expect(contents).toEqual(['from a', 'echo from a', 'from b', 'echo from b']);
    expect(b.messages).toEqual(await store.messages(a.id));
  });
});

describe('sends on a new chat', () => {
  // The run's code loads on demand at a chat's first run: sends made before it has loaded still go one at a time, in order.
  it('answers sends made at once, before the run has loaded, in the order they were made', async () => {
    const { agent, store } = await localAgent((r) => `echo ${r.last}`, new MemoryChatStore());
    const chat = await agent.newChat();
    const replies = await Promise.all([chat.send('one'), chat.send('two'), chat.send('three')]);
    expect(replies.map((r) => r.text)).toEqual(['echo one', 'echo two', 'echo three']);
    const contents = (await store.messages(chat.id)).map((m) => (m.role === 'user' ? m.content : m.role === 'assistant' ? m.text : ''));
    expect(contents).toEqual(['one', 'echo one', 'two', 'echo two', 'three', 'echo three']);
  });
});
