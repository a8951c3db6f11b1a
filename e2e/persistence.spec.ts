// Chats in the real IndexedDB of headless Chromium, across reloads and tabs.
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

async function ready(page: Page): Promise<void> {
  await expect(page.locator('#status')).toHaveText('ready');
}

/** Another tab of the same app, ready. */
async function anotherPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/');
  await ready(page);
  return page;
}

test('send, reload the page, reopen the chat and continue', async ({ page }) => {
  const id = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([toolCallText('add', { a: 2, b: 3 }), 'It is 5.']) });
    const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
    const chat = await agent.newChat({ system: 'Be exact.', tools: [add] });
    await chat.send('What is 2 + 3?');
    return chat.id;
  });
  await page.reload();
  await ready(page);
  const after = await page.evaluate(async (chatId) => {
    const { createAgent, fakeModel, tool, z } = window.tabagent;
    const fake = fakeModel(['Yes, 5.']);
    const agent = await createAgent({ model: fake });
    const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
    const list = await agent.listChats();
    const chat = await agent.openChat(chatId, { tools: [add] });
    const restored = chat.messages.map((m) => m.role);
    const reply = await chat.send('Sure?');
    return { storage: agent.storage.kind, list, restored, text: reply.text, seen: fake.requests[0]!.messages.map((m) => m.content) };
  }, id);
  expect(after.storage).toBe('indexeddb');
  expect(after.list).toEqual([expect.objectContaining({ id, title: 'What is 2 + 3?', messageCount: 4 })]);
  expect(after.restored).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(after.text).toBe('Yes, 5.');
  expect(after.seen.slice(1)).toEqual(['What is 2 + 3?', '<tool_call>\n{"name": "add", "arguments": {"a":2,"b":3}}\n</tool_call>', '<tool_response>\n5\n</tool_response>', 'It is 5.', 'Sure?']);
});

test('a raw-tool turn waits across a reload', async ({ page }) => {
  const id = await page.evaluate(async () => {
    const { createAgent, fakeModel, rawTool, toolCallText } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([toolCallText('pick_file', { kind: 'image' })]) });
    const pick = rawTool({ name: 'pick_file', description: 'Ask the user for a file', parameters: { type: 'object', properties: { kind: { type: 'string' } } } });
    const chat = await agent.newChat({ tools: [pick] });
    await chat.send('Resize a picture');
    return chat.id;
  });
  await page.reload();
  await ready(page);
  const after = await page.evaluate(async (chatId) => {
    const { createAgent, fakeModel, rawTool } = window.tabagent;
    const agent = await createAgent({ model: fakeModel((r) => `Got ${r.last.split('\n')[1]}`) });
    const pick = rawTool({ name: 'pick_file', description: 'Ask the user for a file', parameters: { type: 'object', properties: { kind: { type: 'string' } } } });
    const chat = await agent.openChat(chatId, { tools: [pick] });
    const pending = chat.pendingToolCalls;
    const reply = await chat.sendToolResult(pending[0]!.id, { name: 'cat.png' });
    return { pending: pending.map((c) => [c.name, c.arguments]), text: reply.text };
  }, id);
  expect(after.pending).toEqual([['pick_file', { kind: 'image' }]]);
  expect(after.text).toBe('Got {"name":"cat.png"}');
});

test('two pages on one chat see each other and never interleave', async ({ page, context }) => {
  const id = await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const agent = await createAgent({ model: fakeModel((r) => ({ text: `A answers ${r.last}`, tokenDelayMs: 5 })) });
    const chat = await agent.newChat();
    (window as unknown as { chat: unknown }).chat = chat;
    return chat.id;
  });
  const other = await anotherPage(context);
  await other.evaluate(async (chatId) => {
    const { createAgent, fakeModel } = window.tabagent;
    const agent = await createAgent({ model: fakeModel((r) => ({ text: `B answers ${r.last}`, tokenDelayMs: 5 })) });
    const chat = await agent.openChat(chatId);
    (window as unknown as { chat: unknown }).chat = chat;
  }, id);
  type W = { chat: { send(t: string): Promise<unknown>; messages: Array<{ role: string; content?: string; text?: string }> } };
  await Promise.all([
    page.evaluate(() => Promise.all([1, 2, 3].map((i) => (window as unknown as W).chat.send(`a${i}`)))),
    other.evaluate(() => Promise.all([1, 2, 3].map((i) => (window as unknown as W).chat.send(`b${i}`)))),
  ]);
  const read = (p: Page) => p.evaluate(() => (window as unknown as W).chat.messages.map((m) => m.content ?? m.text));
  // B hears of A's last commits without sending anything itself.
  await other.waitForFunction(() => (window as unknown as W).chat.messages.length === 12);
  // Each question is followed by its own answer: no run interleaved with another.
  const seenByB = await read(other);
  await page.evaluate(() => (window as unknown as W).chat.send('last'));
  const seenByA = await read(page);
  expect(seenByB).toHaveLength(12);
  for (let i = 0; i < 12; i += 2) expect(seenByB[i + 1]).toMatch(new RegExp(`answers ${seenByB[i]}$`));
  expect(seenByA.slice(0, 12)).toEqual(seenByB);
  expect(seenByA.slice(12)).toEqual(['last', 'A answers last']);
});

test('a newer version in another page: this page lets go and says to reload', async ({ page, context }) => {
  await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const agent = await createAgent({ model: fakeModel(['one', 'two']), storage: { dbName: 'upgrade-test' } });
    const chat = await agent.newChat();
    await chat.send('first');
    (window as unknown as { chat: unknown }).chat = chat;
  });
  const newer = await anotherPage(context);
  // A later release of the app opens the database at a higher version.
  const version = await newer.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('upgrade-test', 2);
        request.onsuccess = () => resolve(request.result.version);
        request.onerror = () => reject(request.error);
        request.onblocked = () => reject(new Error('blocked: the old page did not let go'));
      }),
  );
  expect(version).toBe(2);
  const result = await page.evaluate(async () => {
    const chat = (window as unknown as { chat: { send(t: string): Promise<unknown>; messages: unknown[] } }).chat;
    const error = (await chat.send('second').catch((e) => e)) as Error & { code: string };
    return { name: error.name, message: error.message, typed: window.tabagent.isStorageError(error), count: chat.messages.length };
  });
  expect(result).toMatchObject({ name: 'StorageError', typed: true, count: 2 });
  expect(result.message).toMatch(/reload this page/);
});

test('storage: false keeps chats in memory only', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const agent = await createAgent({ model: fakeModel(['hi']), storage: false });
    await (await agent.newChat()).send('hello');
    const dbs = await indexedDB.databases();
    return { storage: agent.storage, chats: (await agent.listChats()).length, dbs: dbs.map((d) => d.name) };
  });
  expect(result).toEqual({ storage: { kind: 'memory', reason: 'storage: false' }, chats: 1, dbs: [] });
});

test('persistent storage is asked for when the app opts in, and the answer reported', async ({ page }) => {
  const persisted = await page.evaluate(async () => {
    const agent = await window.tabagent.createAgent({ model: window.tabagent.fakeModel([]), storage: { persist: true } });
    return agent.storage.persisted;
  });
  expect(typeof persisted).toBe('boolean');
});

test('storage is reported on demand: persisted asked again, usage and quota as they are now', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const agent = await createAgent({ model: fakeModel(['ok']), storage: { dbName: 'storage-on-demand' } });
    const before = await agent.checkStorage();
    // The app's own request (say, after the user installed it) is seen at the next check.
    let asked = 0;
    const storage = navigator.storage as StorageManager & { persisted: () => Promise<boolean> };
    const realPersisted = storage.persisted.bind(storage);
    Object.defineProperty(storage, 'persisted', { configurable: true, value: async () => (asked++, asked > 1 ? true : realPersisted()) });
    const first = await agent.checkStorage();
    const granted = await agent.persistStorage();
    return { before, first: first.persisted, granted: granted.persisted, same: agent.storage.persisted, asked };
  });
  expect(result.before).toMatchObject({ kind: 'indexeddb', dbName: 'storage-on-demand', persisted: expect.any(Boolean), usage: expect.any(Number), quota: expect.any(Number) });
  expect(result.before.quota).toBeGreaterThan(0);
  expect(typeof result.first).toBe('boolean');
  expect(result.granted).toBe(true);
  expect(result.same).toBe(true);
  expect(result.asked).toBe(2);
});

test('reload while the answer streams: the words shown are kept, marked interrupted, and regenerate() replaces them', async ({ page }) => {
  const id = await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const story = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const agent = await createAgent({ model: fakeModel([{ text: story, tokenDelayMs: 10 }]) });
    const chat = await agent.newChat();
    let shown = '';
    chat.on('text', (e) => void (shown += e.delta));
    void chat.send('Tell me a long story').catch(() => undefined);
    while (shown.length < 200) await new Promise((resolve) => setTimeout(resolve, 10));
    // Past the draft interval, so what was shown is on disk.
    await new Promise((resolve) => setTimeout(resolve, 400));
    return chat.id;
  });
  await page.reload();
  await ready(page);
  const after = await page.evaluate(async (chatId) => {
    const { createAgent, fakeModel } = window.tabagent;
    const agent = await createAgent({ model: fakeModel(['A short one.']) });
    const chat = await agent.openChat(chatId);
    const last = chat.messages.at(-1)!;
    const interrupted = last.role === 'assistant' ? { finishReason: last.finishReason, start: last.text.slice(0, 15), long: last.text.length > 200 } : null;
    const again = await chat.regenerate();
    return { interrupted, again: again.text, roles: chat.messages.map((m) => m.role) };
  }, id);
  expect(after.interrupted).toEqual({ finishReason: 'abort', start: 'word0 word1 wor', long: true });
  expect(after).toMatchObject({ again: 'A short one.', roles: ['user', 'assistant'] });
});

test('reload while a tool runs: the turn and the call are kept, the call reported interrupted, never run again', async ({ page }) => {
  const id = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([toolCallText('delete_file', { path: 'notes.txt' }), 'Deleted.']) });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const remove = tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), run: () => (started(), new Promise(() => undefined)) });
    const chat = await agent.newChat({ tools: [remove] });
    void chat.send('Delete notes.txt').catch(() => undefined);
    await running;
    return chat.id;
  });
  await page.reload();
  await ready(page);
  const after = await page.evaluate(async (chatId) => {
    const { createAgent, fakeModel, tool, z, isPendingToolCallsError } = window.tabagent;
    const fake = fakeModel(['Okay.']);
    const agent = await createAgent({ model: fake });
    let runs = 0;
    const remove = tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), run: () => (runs++, 'deleted') });
    const chat = await agent.openChat(chatId, { tools: [remove] });
    const pending = chat.pendingToolCalls.map((c) => ({ name: c.name, interrupted: c.interrupted }));
    const blocked = isPendingToolCallsError(await chat.send('Did it work?').catch((e) => e));
    await chat.cancelToolCalls('The page was closed while it ran; it may or may not have happened.');
    const reply = await chat.send('Did it work?');
    return { pending, blocked, runs, text: reply.text };
  }, id);
  expect(after).toEqual({ pending: [{ name: 'delete_file', interrupted: true }], blocked: true, runs: 0, text: 'Okay.' });
});

test('deleting a chat another page is answering in waits for that answer; then nothing of the chat is left', async ({ page, context }) => {
  const id = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([toolCallText('lookup', { q: 'x' }), 'Found it.']) });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const held = new Promise<string>((resolve) => ((window as unknown as { finish: () => void }).finish = () => resolve('found')));
    const lookup = tool({ name: 'lookup', description: 'Look up', input: z.object({ q: z.string() }), run: () => (started(), held) });
    const chat = await agent.newChat({ tools: [lookup] });
    (window as unknown as { reply: Promise<unknown> }).reply = chat.send('Look it up').then(
      (r) => ({ text: r.text }),
      (e: Error) => ({ error: e.name }),
    );
    await running;
    return chat.id;
  });
  const other = await anotherPage(context);
  await other.evaluate(async (chatId) => {
    const { createAgent, fakeModel } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([]) });
    const w = window as unknown as { deleted: boolean; deleting: Promise<void>; agent: unknown };
    w.agent = agent;
    w.deleted = false;
    w.deleting = agent.deleteChat(chatId).then(() => void (w.deleted = true));
  }, id);
  // The deletion waits for the chat's lock, which the answering page holds.
  await other.waitForFunction((chatId) => navigator.locks.query().then((s) => (s.pending ?? []).some((l) => l.name?.endsWith(chatId))), id);
  expect(await other.evaluate(() => (window as unknown as { deleted: boolean }).deleted)).toBe(false);
  await page.evaluate(() => (window as unknown as { finish: () => void }).finish());
  expect(await page.evaluate(() => (window as unknown as { reply: Promise<unknown> }).reply)).toEqual({ text: 'Found it.' });
  await other.evaluate(() => (window as unknown as { deleting: Promise<void> }).deleting);
  const left = await other.evaluate(async (chatId) => {
    const { createAgent, fakeModel } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([]) });
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(agent.storage.dbName!);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const count = (store: string, range: IDBKeyRange | string) =>
      new Promise<number>((resolve) => {
        const request = db.transaction(store).objectStore(store).count(range);
        request.onsuccess = () => resolve(request.result);
      });
    const result = { chats: await count('chats', chatId), messages: await count('messages', IDBKeyRange.bound([chatId, 0], [chatId, Infinity])), listed: (await agent.listChats()).length };
    db.close();
    return result;
  }, id);
  expect(left).toEqual({ chats: 0, messages: 0, listed: 0 });
});

test('a run checks the stored chat once while it holds the chat, however many hops it makes', async ({ page }) => {
  const reads = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const step = toolCallText('step', { n: 1 });
    const agent = await createAgent({ model: fakeModel([step, 'one hop', step, step, step, step, 'four hops']) });
    const tools = [tool({ name: 'step', description: 'Step', input: z.object({ n: z.number() }), run: () => 'ok' })];
    const get = IDBObjectStore.prototype.get;
    let count = 0;
    IDBObjectStore.prototype.get = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['get']>) {
      if (this.name === 'chats') count++;
      return get.apply(this, args);
    };
    const readsOf = async (text: string) => {
      const chat = await agent.newChat({ tools });
      count = 0;
      await chat.send(text);
      return count;
    };
    try {
      return { oneHop: await readsOf('once'), fourHops: await readsOf('four times') };
    } finally {
      IDBObjectStore.prototype.get = get;
    }
  });
  // Each commit of a run writes; the record is read once, by the first, under the chat's lock.
  expect(reads).toEqual({ oneHop: 1, fourHops: 1 });
});

test('a tool may rename or delete its own chat: the run does not wait on itself', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z, isChatNotFoundError } = window.tabagent;
    // Two agents on one database, each with its own script, so one case cannot feed the other.
    const agent = await createAgent({ model: fakeModel([toolCallText('name_chat', { title: 'Trip to Lisbon' }), 'Named it.']) });
    const other = await createAgent({ model: fakeModel([toolCallText('forget_me', {}), 'Forgotten.']) });
    const named = await agent.newChat({ tools: [tool({ name: 'name_chat', description: 'Name this chat', input: z.object({ title: z.string() }), run: async ({ title }) => (await named.rename(title), 'done') })] });
    const forgotten = await other.newChat({ tools: [tool({ name: 'forget_me', description: 'Delete this chat', input: z.object({}), run: async () => (await other.deleteChat(forgotten.id), 'deleted') })] });
    const within = <T>(work: Promise<T>) => Promise.race([work, new Promise<string>((resolve) => setTimeout(() => resolve('hung'), 5000))]);
    const renameReply = await within(named.send('Plan a trip').then((r) => r.text));
    const deleteReply = await within(forgotten.send('Forget this').then(() => 'answered', (e: unknown) => (isChatNotFoundError(e) ? 'ChatNotFoundError' : String(e))));
    const list = await agent.listChats();
    return { renameReply, deleteReply, chats: list.map((c) => [c.id === named.id ? 'named' : c.id, c.title, c.messageCount]) };
  });
  expect(result).toEqual({ renameReply: 'Named it.', deleteReply: 'ChatNotFoundError', chats: [['named', 'Trip to Lisbon', 4]] });
});
