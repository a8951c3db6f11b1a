// A server model as an app runs it: the harness page (tabagent from source)
// in Chromium without WebGPU, a real AI SDK provider (@ai-sdk/openai-compatible)
// over real HTTP to e2e/support/chat-server.mjs on 127.0.0.1, a server in the
// OpenAI chat-completions wire format (SSE) that answers by rule, with no
// model behind it (no engine that runs in Node was at hand). The chain's GGUF
// is the tests' tiny GGUF on the real wllama, answered for the curated URL.
import { expect, test, type Page } from '@playwright/test';
import { GGUF_ID, GGUF_URL, offline } from './curated-gguf.js';
import { startChatServer, type ChatServer } from './support/chat-server.mjs';

const KEY = 'sk-e2e-THE-APPS-KEY-31415';

test.describe.configure({ timeout: 60_000 });

let server: ChatServer;
test.beforeAll(async () => {
  server = await startChatServer({ key: KEY });
});
test.afterAll(async () => server.close());
test.beforeEach(() => server.control('reset'));


/** A harness page (the main one, or the Prompt API stand-in's), with the tools and the server model as an app makes them on `window.e2e`. */
async function open(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.locator('#status')).toHaveText('ready');
  await page.evaluate(
    async ({ url, key }) => {
      const { tool, rawTool, z } = window.tabagent;
      const { createOpenAICompatible } = await window.providers.openaiCompatible();
      const e2e = {
        serverModel: () => createOpenAICompatible({ name: 'e2e', baseURL: url, apiKey: key })('served'),
        add: tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b }),
        remove: tool({ name: 'remove', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => ({ deleted: path }) }),
        search: rawTool({ name: 'search', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }),
      };
      Object.assign(window, { e2e });
    },
    { url: server.url, key: KEY },
  );
}

type E2e = { serverModel(): unknown; add: unknown; remove: unknown; search: unknown };
declare global {
  interface Window {
    e2e: E2e;
  }
}

test('a chat on a server model: managed and raw tools, an approval across a reload, abort; the key never stored', async ({ page }) => {
  await offline(page);
  await open(page);
  const first = await page.evaluate(
    async ({ key }) => {
      const { serverModel, add, remove, search } = window.e2e;
      const agent = await window.tabagent.createAgent({ model: serverModel() as never, storage: { dbName: 'server-e2e' } });
      const info = await agent.ready;
      const chat = await agent.newChat({ tools: [add, remove, search] as never });
      const managed = (await chat.send('What is 2 + 3?')).text;
      let reply = await chat.send('search tabagent');
      const raw = reply.toolCalls.map((c: { name: string; arguments: unknown }) => ({ name: c.name, arguments: c.arguments }));
      reply = await chat.sendToolResult(reply.toolCalls[0]!.id, { hits: 1 });
      const answered = reply.text;
      const waiting = (await chat.send('delete old.log')).approvals!.length;
      const exported = JSON.stringify(await agent.exportChat(chat.id));
      return { engine: info.engine, host: info.host, managed, raw, answered, waiting, id: chat.id, keyInExport: exported.includes(key) };
    },
    { key: KEY },
  );
  expect(first).toMatchObject({ engine: 'server', host: 'page', managed: 'The tool said 5.', raw: [{ name: 'search', arguments: { q: 'tabagent' } }], answered: 'The tool said {"hits":1}.', waiting: 1, keyInExport: false });
  // Two hops for the sum, one for the raw call, one after its answer, one for the call that waits.
  expect(server.state.requests).toHaveLength(5);

  await open(page); // a reload
  const second = await page.evaluate(
    async ({ key, id }) => {
      const { serverModel, add, remove, search } = window.e2e;
      const agent = await window.tabagent.createAgent({ model: serverModel() as never, storage: { dbName: 'server-e2e' } });
      const chat = await agent.openChat(id, { tools: [add, remove, search] as never });
      const approved = (await chat.approve(chat.pendingToolCalls[0]!.id)).text;
      // Abort while the server streams.
      const stop = new AbortController();
      chat.on('text', () => stop.abort());
      const aborted = await chat.send('tell it slowly', { signal: stop.signal }).then(() => 'resolved', (e: Error) => e.name);
      const last = chat.messages.at(-1);
      // Everything IndexedDB holds for tabagent, searched for the key.
      const names = (await indexedDB.databases()).map((d) => d.name!);
      const dump: unknown[] = [];
      for (const name of names) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => Object.assign(indexedDB.open(name), { onsuccess(this: IDBOpenDBRequest) { resolve(this.result); }, onerror: reject }));
        for (const store of db.objectStoreNames) dump.push(await new Promise((resolve) => Object.assign(db.transaction(store).objectStore(store).getAll(), { onsuccess(this: IDBRequest) { resolve(this.result); } })));
        db.close();
      }
      const stored = JSON.stringify(dump);
      return { approved, aborted, lastFinish: last?.role === 'assistant' ? last.finishReason : last?.role, keyStored: stored.includes(key), stored: stored.includes('The tool said 5.') };
    },
    { key: KEY, id: first.id },
  );
  expect(second).toEqual({ approved: 'The tool said {"deleted":"old.log"}.', aborted: 'AbortError', lastFinish: 'abort', keyStored: false, stored: true });
  // The approval's hop and the aborted one: nothing was asked again after the reload.
  expect(server.state.requests).toHaveLength(7);
  expect(server.state.requests.at(-1)!.messages.at(-1)).toMatchObject({ role: 'user', content: 'tell it slowly' });
});

test('fallback chains without WebGPU: each skipped engine says why, and nothing is downloaded for one skipped', async ({ page }) => {
  const external = await offline(page);
  await open(page);
  /** A chain in the page: 'server' stands for the server model; which engine answered, and the engines skipped. */
  const chain = (model: string, fallback: string[]) =>
    page.evaluate(
      async ({ model, fallback }) => {
        const pick = (name: string) => (name === 'server' ? window.e2e.serverModel() : name);
        // Listening before the load, so no skip goes unheard.
        const agent = await window.tabagent.createAgent({ storage: false });
        const warnings: Array<{ modelId: string; engine: string; error: string }> = [];
        agent.on('model-warning', (w) => {
          if (w.type === 'engine-skipped') warnings.push({ modelId: w.modelId, engine: w.engine, error: w.error.name });
        });
        const info = await agent.load(pick(model) as never, { fallback: fallback.map(pick) as never });
        agent.close();
        return { engine: info.engine, warnings };
      },
      { model, fallback },
    );
  const WEBLLM = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
  const webgpu = { modelId: WEBLLM, engine: 'webllm', error: 'WebGPUUnavailableError' };
  const promptApi = { modelId: 'chrome-builtin', engine: 'prompt-api', error: 'EngineUnavailableError' };
  expect(await chain(WEBLLM, ['chrome-builtin', 'server', GGUF_ID])).toEqual({ engine: 'server', warnings: [webgpu, promptApi] });
  // WebLLM checks the GPU before any download, and the GGUF after the server was never asked for.
  expect(external).toEqual([]);
  expect(await chain('server', [GGUF_ID])).toEqual({ engine: 'server', warnings: [] });
  expect(external).toEqual([]);
  expect(await chain(WEBLLM, ['chrome-builtin', GGUF_ID, 'server'])).toEqual({ engine: 'wllama', warnings: [webgpu, promptApi] });
  // The GGUF, and its Git LFS pointer beside it (wllama reads its sha256).
  expect(new Set(external)).toEqual(new Set([`GET ${GGUF_URL}`, `GET ${GGUF_URL.replace('/resolve/', '/raw/')}`]));
  expect(server.state.requests).toEqual([]);
});

test('a reload mid-chat continues on another engine: begun on the server, carried on by the GGUF on wllama', async ({ page }) => {
  await offline(page);
  await open(page);
  const id = await page.evaluate(
    async () => {
      const { serverModel, add } = window.e2e;
      const agent = await window.tabagent.createAgent({ model: serverModel() as never, storage: { dbName: 'handover-e2e' } });
      const chat = await agent.newChat({ tools: [add] as never });
      await chat.send('What is 2 + 3?');
      return chat.id;
    },
  );
  await open(page); // a reload
  const after = await page.evaluate(
    async ({ id, gguf }) => {
      const { add } = window.e2e;
      // No WebGPU here: the WebLLM model is skipped and the GGUF answers.
      const agent = await window.tabagent.createAgent({ model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', fallback: [gguf], storage: { dbName: 'handover-e2e' } });
      const info = await agent.ready;
      const chat = await agent.openChat(id, { tools: [add] as never });
      const reply = await chat.send('And 3 + 4?', { toolChoice: 'none', generation: { maxTokens: 8 } });
      return { engine: info.engine, finish: reply.finishReason, messages: chat.messages.length };
    },
    { id, gguf: GGUF_ID },
  );
  // user, call, result, answer (the server's), then user and the GGUF's answer.
  expect(after).toMatchObject({ engine: 'wllama', messages: 6 });
  expect(['stop', 'length']).toContain(after.finish);
  expect(server.state.requests).toHaveLength(2);
});

test('Chrome’s model present (the strict stand-in): the chain stops there; after a reload without it, the server carries the chat on', async ({ page }) => {
  const external = await offline(page);
  const WEBLLM = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
  /** Listening before the load; the chain WebLLM → Chrome's model → the server → the GGUF. */
  const chainChat = (install: boolean, chatId?: string) =>
    page.evaluate(
      async ({ install, chatId, model, gguf }) => {
        if (install) window.promptApi.install({ model: window.promptApi.scripted([JSON.stringify({ answer: 'From Chrome.' })]) });
        const agent = await window.tabagent.createAgent({ storage: { dbName: 'chain-e2e' } });
        const skipped: string[] = [];
        agent.on('model-warning', (w) => void (w.type === 'engine-skipped' && skipped.push(w.engine)));
        const info = await agent.load(model, { fallback: ['chrome-builtin', window.e2e.serverModel() as never, gguf] });
        const chat = chatId ? await agent.openChat(chatId) : await agent.newChat();
        const reply = await chat.send(chatId ? 'And now?' : 'Hello?');
        agent.close();
        return { engine: info.engine, skipped, text: reply.text, id: chat.id };
      },
      { install, chatId, model: WEBLLM, gguf: GGUF_ID },
    );
  await open(page, '/prompt-api.html');
  const first = await chainChat(true);
  expect(first).toMatchObject({ engine: 'prompt-api', skipped: ['webllm'], text: 'From Chrome.' });
  await open(page, '/prompt-api.html'); // a reload; Chrome's model is gone
  const second = await chainChat(false, first.id);
  expect(second).toMatchObject({ engine: 'server', skipped: ['webllm', 'prompt-api'] });
  // The server read the chat so far: the question, Chrome's answer, the new message.
  expect(second.text).toBe('You said: And now? (3 messages).');
  expect(server.state.requests[0]!.messages.map((m) => [m.role, m.content])).toEqual([
    ['user', 'Hello?'],
    ['assistant', 'From Chrome.'],
    ['user', 'And now?'],
  ]);
  expect(external).toEqual([]);
});

