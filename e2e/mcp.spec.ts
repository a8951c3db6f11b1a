// Tools from a real MCP server (e2e/support/mcp-server.mjs, the official SDK's
// server) on another origin, used by chats through the real worker and the fake model.
import { expect, test } from './fixtures.js';

const MCP = 'http://127.0.0.1:4191';
// The server's record is shared: these run one after another.
test.describe.configure({ mode: 'serial' });
test.beforeEach(async () => {
  await fetch(`${MCP}/control?do=reset`, { method: 'POST' });
});
const serverState = async () => (await fetch(`${MCP}/state`)).json() as Promise<{ calls: unknown[]; cancelled: unknown[]; deleted: string[] }>;

test('the MCP client loads only when mcpTools is used, and a chat runs the server’s tools', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname)));
  await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const agent = await createAgent({ model: fakeModel(['hello']) });
    await (await agent.newChat()).send('hi');
  });
  const before = [...scripts];
  const result = await page.evaluate(async (url) => {
    const { createAgent, fakeModel, mcpTools, toolCallText } = window.tabagent;
    const server = await mcpTools(url);
    const fake = fakeModel([toolCallText('add', { a: 2, b: 3 }), toolCallText('slow_count', { steps: 3, delayMs: 20 }), 'Done.']);
    const agent = await createAgent({ model: fake });
    const chat = await agent.newChat({ tools: [server] });
    const log: string[] = [];
    chat.on('tool-start', (e) => log.push(`start ${e.toolName}`));
    chat.on('tool-progress', (e) => log.push(`progress ${JSON.stringify(e.details)}`));
    chat.on('tool-end', (e) => log.push(`end ${e.toolName} ${e.content}`));
    const reply = await chat.send('add, then count');
    await server.close();
    return { text: reply.text, log, names: server.server.name };
  }, `${MCP}/mcp`);
  expect(before.some((p) => p.includes('mcp-server'))).toBe(false);
  expect(scripts.filter((p) => !before.includes(p)).some((p) => p.includes('mcp-server'))).toBe(true);
  expect(result).toEqual({
    text: 'Done.',
    names: 'tabagent-test',
    log: [
      'start add',
      'end add {"sum":5}',
      'start slow_count',
      'progress {"progress":1,"total":3,"message":"step 1"}',
      'progress {"progress":2,"total":3,"message":"step 2"}',
      'progress {"progress":3,"total":3,"message":"step 3"}',
      'end slow_count "counted to 3"',
    ],
  });
  expect((await serverState()).calls).toEqual([{ tool: 'add', a: 2, b: 3 }, { tool: 'slow_count', steps: 3 }]);
});

test('a destructive tool waits for approval; a failing one is read by the model; a timeout cancels on the server', async ({ page }) => {
  const result = await page.evaluate(async (url) => {
    const { createAgent, fakeModel, mcpTools, toolCallText } = window.tabagent;
    // The source's timeout holds for every call: long enough for the quick ones on a loaded machine, short of slow_count's 10 s.
    const server = await mcpTools(url, { timeoutMs: 2_000 });
    const fake = fakeModel([toolCallText('delete_file', { path: 'notes.txt' }), toolCallText('fail'), toolCallText('slow_count', { steps: 100, delayMs: 100 }), 'Gave up.']);
    const agent = await createAgent({ model: fake });
    const chat = await agent.newChat({ tools: [server] });
    const waiting = await chat.send('delete notes.txt');
    const statuses: string[] = [];
    chat.on('tool-end', (e) => statuses.push(`${e.toolName} ${e.status} ${e.content}`));
    const reply = await chat.approve(waiting.approvals![0]!.id);
    await server.close();
    return { approvals: waiting.approvals!.map((c) => c.name), statuses, text: reply.text };
  }, `${MCP}/mcp`);
  expect(result.approvals).toEqual(['delete_file']);
  expect(result.statuses).toEqual(['delete_file ok "deleted notes.txt"', 'fail error {"error":"the disk is full"}', 'slow_count timeout {"error":"Tool \\"slow_count\\" did not finish within 2000 ms."}']);
  expect(result.text).toBe('Gave up.');
  const state = await serverState();
  expect(state.deleted).toEqual(['notes.txt']);
  await expect.poll(async () => (await serverState()).cancelled.length).toBe(1);
});

test('tools/list_changed reaches the chat, and its next run offers the new tool', async ({ page }) => {
  const waitingForChange = page.evaluate(async (url) => {
    const { createAgent, fakeModel, mcpTools, toolCallText } = window.tabagent;
    const server = await mcpTools(url);
    const fake = fakeModel([toolCallText('weather', { city: 'Oslo' }), 'Sunny.']);
    const agent = await createAgent({ model: fake });
    const chat = await agent.newChat({ tools: [server] });
    const names = await new Promise<string[]>((resolve) => {
      chat.on('tools-changed', (e) => resolve(e.names));
      (window as unknown as { ready: boolean }).ready = true;
    });
    const reply = await chat.send('weather in Oslo?');
    await server.close();
    return { names, text: reply.text, read: fake.requests[1]!.last };
  }, `${MCP}/mcp`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
  await fetch(`${MCP}/control?do=add-weather`, { method: 'POST' });
  const result = await waitingForChange;
  expect(result.names).toContain('weather');
  expect(result).toMatchObject({ text: 'Sunny.', read: '<tool_response>\n"Sunny in Oslo"\n</tool_response>' });
});

test('a server that is down, not MCP, or wants a token: McpConnectionError; the token option gets in', async ({ page }) => {
  const result = await page.evaluate(async (origin) => {
    const { mcpTools, isMcpConnectionError } = window.tabagent;
    const failure = (url: string) =>
      mcpTools(url).then(
        () => 'connected',
        (e: unknown) => (isMcpConnectionError(e) ? `McpConnectionError ${e.httpStatus ?? '-'} ${e.unauthorized}` : String(e)),
      );
    const withToken = await mcpTools(`${origin}/secure/mcp`, { token: 'secret-token' });
    const count = withToken.tools.length;
    await withToken.close();
    return { down: await failure('http://127.0.0.1:4188/mcp'), garbage: await failure(`${origin}/garbage/mcp`), secure: await failure(`${origin}/secure/mcp`), count };
  }, MCP);
  expect(result).toEqual({ down: 'McpConnectionError - false', garbage: 'McpConnectionError - false', secure: 'McpConnectionError 401 true', count: 5 });
});
