// Tools called as tasks (MCP 2025-11-25) in a real browser, against a real
// server built with the SDK's task runtime (e2e/support/mcp-task-server.mjs):
// a reload in the middle of a task-augmented call resumes waiting for the
// same task, from what the chat kept in IndexedDB, and nothing runs twice.
import { expect, test } from './fixtures.js';

const TASKS = 'http://127.0.0.1:4194';
test.describe.configure({ mode: 'serial' });
test.beforeEach(async () => {
  await fetch(`${TASKS}/control?do=reset`, { method: 'POST' });
});
const serverState = async () => (await fetch(`${TASKS}/state`)).json() as Promise<{ runs: Array<{ scene: string }>; tasks: Array<{ scene: string }>; calls: Array<{ tool: string; asTask: boolean }> }>;

test('a reload in the middle of a task: the reopened chat waits for the same task and the run goes on', async ({ page }) => {
  test.setTimeout(60_000);
  const chatId = await page.evaluate(async (url) => {
    const { createAgent, fakeModel, mcpTools, toolCallText } = window.tabagent;
    const server = await mcpTools(url, { timeoutMs: 120_000 });
    const agent = await createAgent({ model: fakeModel([toolCallText('render', { scene: 'finale', steps: 30, stepMs: 100 }), 'never']), storage: { dbName: 'tasks-e2e' } });
    const chat = await agent.newChat({ tools: [server] });
    // The first status arrives once the task is kept on disk and the wait has begun.
    const waiting = new Promise<void>((resolve) => chat.on('tool-progress', () => resolve()));
    void chat.send('Render the finale').catch(() => undefined);
    await waiting;
    return chat.id;
  }, `${TASKS}/mcp`);
  expect((await serverState()).tasks.map((t) => t.scene)).toEqual(['finale']);

  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready');
  const after = await page.evaluate(
    async ({ url, chatId }) => {
      const { createAgent, fakeModel, mcpTools } = window.tabagent;
      const server = await mcpTools(url, { timeoutMs: 120_000 });
      const fake = fakeModel(['The finale is rendered.']);
      const agent = await createAgent({ model: fake, storage: { dbName: 'tasks-e2e' } });
      const chat = await agent.openChat(chatId, { tools: [server] });
      const pending = chat.pendingToolCalls.map((c) => ({ name: c.name, interrupted: c.interrupted, resumable: c.resumable }));
      const progress: string[] = [];
      chat.on('tool-progress', (e) => progress.push(JSON.stringify(e.details)));
      const reply = await chat.runTool(chat.pendingToolCalls[0]!);
      await server.close();
      return { pending, text: reply.text, read: fake.requests[0]!.last, sawProgress: progress.length > 0, left: chat.pendingToolCalls.length };
    },
    { url: `${TASKS}/mcp`, chatId },
  );
  expect(after).toEqual({
    pending: [{ name: 'render', interrupted: true, resumable: true }],
    text: 'The finale is rendered.',
    read: '<tool_response>\n"rendered finale"\n</tool_response>',
    sawProgress: true,
    left: 0,
  });
  const state = await serverState();
  // One tools/call, one task, run once: the reload waited for it, it did not start another.
  expect(state.calls).toEqual([{ tool: 'render', asTask: true }]);
  expect(state.runs.map((r) => r.scene)).toEqual(['finale']);
});
