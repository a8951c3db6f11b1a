// Tools called as tasks (MCP 2025-11-25) against a real server built with the
// SDK's task runtime (e2e/support/mcp-task-server.mjs), with chats whose
// model side is the fake engine, and a reload that resumes the same task.
import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMcpTaskServer, type McpTaskServer } from '../../../e2e/support/mcp-task-server.mjs';
import { MemoryChatStore } from '../../store/memory-chat-store.js';
import { toolCallText as call } from '../../testing/calls.js';
import { localAgent, localChat } from '../../test-support/local-chat.js';
import { mcpTools } from './mcp-tools.js';
import { openedSources } from '../../test-support/opened-sources.js';
import { toolResults as results } from '../../test-support/tool-results.js';
import type { ManagedTool } from '../../tools/types.js';

let server: McpTaskServer;
const { open, closeAll } = openedSources(mcpTools);

beforeAll(async () => {
  server = await startMcpTaskServer();
});
afterEach(async () => {
  await closeAll();
  server.control('reset');
});
afterAll(() => server.close());

/** What a tab that closes now leaves on disk, as another page load's store (the closing page writes on to the old one, unread). */
async function tabClosed(store: MemoryChatStore, chatId: string): Promise<MemoryChatStore> {
  const disk = new MemoryChatStore();
  await disk.insert({ record: (await store.get(chatId))!, messages: await store.messages(chatId) });
  return disk;
}

// Real servers and a worker thread on a shared 2-core machine: minutes are not the point, a generous bound is.
describe('tools called as tasks', { timeout: 20_000 }, () => {
  it('a tool that requires a task is called as one: progress and status reach tool-progress, the model reads the result', async () => {
    const mcp = await open(server.url);
    const { chat, fake } = await localChat([call('render', { scene: 'intro', steps: 3, stepMs: 60 }), 'Rendered.'], { tools: [mcp] });
    const progress: unknown[] = [];
    chat.on('tool-progress', (e) => progress.push(e.details));
    expect((await chat.send('render the intro')).text).toBe('Rendered.');
    expect(results(fake.requests[1]!.last)).toEqual(['"rendered intro"']);
    expect(server.state.calls).toEqual([{ tool: 'render', asTask: true }]);
    // The server's progress notifications, in order; its status messages as polled (each poll sees the latest).
    expect(progress.filter((p) => 'progress' in (p as object))).toEqual([1, 2, 3].map((n) => ({ progress: n, total: 3, message: `step ${n}` })));
    const statuses = progress.filter((p) => !('progress' in (p as object))).map((p) => (p as { message: string }).message);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((m) => /^step [1-3] of 3$/.test(m))).toBe(true);
  });

  it('a long task polled many times leaves no abort listener on the call’s signal, while it waits or after', async () => {
    let polls = 0;
    const counting: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string' && JSON.parse(init.body).method === 'tasks/get') polls++;
      return fetch(input, init);
    };
    const mcp = await open(server.url, { fetch: counting });
    const render = mcp.tools.find((t) => t.name === 'render') as ManagedTool;
    const signal = new AbortController().signal;
    const listening = () => getEventListeners(signal, 'abort').length;
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, listening())), 5);
    try {
      // 30 steps of 25 ms, polled every 50 ms (the server's pollInterval): some 15 waits.
      const result = await render.run({ scene: 'long', steps: 30, stepMs: 25 }, { callId: 'c1', signal, update: () => undefined, terminate: () => undefined });
      expect(result).toBe('rendered long');
    } finally {
      clearInterval(watch);
    }
    expect(polls).toBeGreaterThanOrEqual(10);
    // What one request and one wait hold at a time; not one per poll so far.
    expect(most).toBeLessThanOrEqual(3);
    expect(listening()).toBe(0);
  });

  it('a task that fails is an McpToolError the model reads', async () => {
    const mcp = await open(server.url);
    const { chat, fake } = await localChat([call('explode', { scene: 'outro', steps: 1, stepMs: 20 }), 'It failed.'], { tools: [mcp] });
    await chat.send('render the outro');
    expect(JSON.parse(results(fake.requests[1]!.last)[0]!)).toEqual({ error: 'the renderer crashed on outro' });
  });

  it('a tool that allows tasks is called plainly, unless the app asks (asTasks)', async () => {
    const plain = await open(server.url);
    const first = await localChat([call('lookup', { word: 'tab' }), 'ok'], { tools: [plain] });
    await first.chat.send('look up tab');
    const asTasks = await open(server.url, { asTasks: (tool) => tool.name === 'lookup' });
    const second = await localChat([call('lookup', { word: 'agent' }), 'ok'], { tools: [asTasks] });
    await second.chat.send('look up agent');
    expect(server.state.calls).toEqual([{ tool: 'lookup', asTask: false }, { tool: 'lookup', asTask: true }]);
    expect(results(second.fake.requests[1]!.last)).toEqual(['"agent: a word"']);
  });

  it('a timeout cancels the task on the server (tasks/cancel)', async () => {
    const mcp = await open(server.url, { timeoutMs: 200 });
    const { chat } = await localChat([call('render', { scene: 'long', steps: 50, stepMs: 50 }), 'Too slow.'], { tools: [mcp] });
    const ends: string[] = [];
    chat.on('tool-end', (e) => ends.push(e.status));
    await chat.send('render');
    expect(ends).toEqual(['timeout']);
    await expect.poll(() => server.state.cancelled.map((c) => c.scene)).toEqual(['long']);
  });

  it('a reload in the middle: the task id is kept with the started call, and runTool waits for the same task, not a new one', async () => {
    const store = new MemoryChatStore();
    const mcp = await open(server.url);
    const { agent } = await localAgent([call('render', { scene: 'finale', steps: 6, stepMs: 80 }), 'never'], store);
    const chat = await agent.newChat({ tools: [mcp] });
    const running = chat.send('render the finale');
    running.catch(() => undefined);
    await expect.poll(() => server.state.tasks.length).toBe(1);
    await expect.poll(async () => Object.keys((await store.get(chat.id))!.kept ?? {}).length).toBe(1);
    // The tab closes: what is on disk now is what the reload finds; its session goes with it.
    const disk = await tabClosed(store, chat.id);
    await mcp.close();

    const again = await open(server.url);
    const { agent: reloaded, fake } = await localAgent(['The finale is rendered.'], disk);
    const reopened = await reloaded.openChat(chat.id, { tools: [again] });
    const [pending] = reopened.pendingToolCalls;
    expect(pending).toMatchObject({ name: 'render', interrupted: true, resumable: true });
    expect((await reopened.runTool(pending!)).text).toBe('The finale is rendered.');
    expect(results(fake.requests[0]!.last)).toEqual(['"rendered finale"']);
    // One task, run once.
    expect(server.state.tasks.map((t) => t.scene)).toEqual(['finale']);
    expect(server.state.runs).toEqual([{ tool: 'render', scene: 'finale' }]);
  });

  it('a task the server no longer knows (it restarted), or another server’s, on resume: a typed error the model reads, nothing run again', async () => {
    const first = await startMcpTaskServer();
    const port = Number(new URL(first.url).port);
    const store = new MemoryChatStore();
    const mcp = await open(first.url);
    const { agent } = await localAgent([call('render', { scene: 'lost', steps: 50, stepMs: 50 }), 'never'], store);
    const chat = await agent.newChat({ tools: [mcp] });
    chat.send('render').catch(() => undefined);
    await expect.poll(async () => Object.keys((await store.get(chat.id))!.kept ?? {}).length).toBe(1);
    const disk = await tabClosed(store, chat.id);
    await mcp.close();
    await first.close();
    const restarted = await startMcpTaskServer({ port });
    try {
      // The same tools on another server first: not asked about a task it never started.
      const { agent: elsewhere, fake: readElsewhere } = await localAgent(['Not here.'], await tabClosed(disk, chat.id));
      const there = await elsewhere.openChat(chat.id, { tools: [await open(server.url)] });
      await there.runTool(there.pendingToolCalls[0]!);
      expect(JSON.parse(results(readElsewhere.requests[0]!.last)[0]!).error).toMatch(/the call's task \w+ was started on http:\/\/127\.0\.0\.1:\d+\/mcp, not this server$/);

      const { agent: reloaded, fake } = await localAgent(['It is lost.'], disk);
      const reopened = await reloaded.openChat(chat.id, { tools: [await open(restarted.url)] });
      await reopened.runTool(reopened.pendingToolCalls[0]!);
      const error = JSON.parse(results(fake.requests[0]!.last)[0]!).error as string;
      expect(error, error).toMatch(/^MCP server .*: the task \w+ is gone \(the server says: /);
      expect([restarted.state.tasks, server.state.tasks]).toEqual([[], []]);
    } finally {
      await restarted.close();
    }
  });
});
