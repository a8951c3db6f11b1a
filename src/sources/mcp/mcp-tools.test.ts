// mcpTools against a real MCP server (the official SDK's, e2e/support/mcp-server.mjs)
// in this process, with chats whose model side is the fake engine.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startMcpTestServer, type McpTestServer } from '../../../e2e/support/mcp-server.mjs';
import { isInvalidOptionsError, isMcpConnectionError, isMcpToolError, isToolExecutionError, isToolTimeoutError, isDuplicateToolError, type McpToolError } from '../../errors/index.js';
import { toolCallText as call } from '../../testing/calls.js';
import { localChat } from '../../test-support/local-chat.js';
import { tool } from '../../tools/define-tool.js';
import { mcpTools } from './mcp-tools.js';
import { openedSources } from '../../test-support/opened-sources.js';
import { toolResults as results } from '../../test-support/tool-results.js';

let server: McpTestServer;
const { open, closeAll } = openedSources(mcpTools);

beforeAll(async () => {
  server = await startMcpTestServer();
});
afterEach(async () => {
  await closeAll();
  server.control('reset');
});
afterAll(() => server.close());

describe('mcpTools', () => {
  it('offers the server’s tools with its own schemas, names and hints', async () => {
    const mcp = await open(server.url);
    expect(mcp.server).toEqual({ name: 'tabagent-test', version: '1.0.0' });
    expect(mcp.instructions).toBe('Tools for tabagent tests.');
    expect(mcp.tools.map((t) => [t.name, t.readOnly, t.destructive, t.kind === 'managed' && t.needsApproval])).toEqual([
      ['add', true, false, false],
      ['slow_count', true, false, false],
      ['fail', true, false, false],
      ['delete_file', false, true, true],
      ['snapshot', true, false, false],
    ]);
    // The server's schema, as it listed it, less the `$schema` line.
    expect(mcp.tools[0]!.parameters).toEqual({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
  });

  it('runs a call on the server, with the coercions small models need, and the model reads the structured result', async () => {
    const mcp = await open(server.url);
    // A model writing "2" for 2 is one without a grammar.
    const { chat, fake } = await localChat([call('add', { a: '2', b: 3 }), 'It is 5.'], { tools: [mcp], grammar: false });
    const reply = await chat.send('2 + 3?');
    expect(reply.text).toBe('It is 5.');
    expect(server.state.calls).toEqual([{ tool: 'add', a: 2, b: 3 }]);
    expect(results(fake.requests[1]!.last)).toEqual(['{"sum":5}']);
  });

  it('refuses arguments the server’s schema refuses, before the call: the model reads why', async () => {
    const mcp = await open(server.url);
    const { chat, fake } = await localChat([call('add', { a: 'two' }), 'Sorry.'], { tools: [mcp], grammar: false });
    await chat.send('add');
    expect(server.state.calls).toEqual([]);
    const [read] = results(fake.requests[1]!.last);
    expect(JSON.parse(read!).error).toContain('a: Instance type "string" is invalid. Expected "number".');
    expect(JSON.parse(read!).error).toContain('b: required');
  });

  it('a failed tool (isError) is an McpToolError: the model reads it by default, `return` rejects the send', async () => {
    const inform = await open(server.url);
    const first = await localChat([call('fail'), 'The disk is full.'], { tools: [inform] });
    await first.chat.send('go');
    expect(results(first.fake.requests[1]!.last)).toEqual(['{"error":"the disk is full"}']);

    const strict = await open(server.url, { onError: 'return' });
    const second = await localChat([call('fail')], { tools: [strict] });
    const error = await second.chat.send('go').catch((e: unknown) => e);
    expect(isToolExecutionError(error)).toBe(true);
    const cause = (error as Error).cause as McpToolError;
    expect(isMcpToolError(cause)).toBe(true);
    expect({ serverUrl: cause.serverUrl, toolName: cause.toolName, failure: cause.failure, detail: cause.detail }).toEqual({ serverUrl: server.url, toolName: 'fail', failure: 'tool', detail: 'the disk is full' });
    expect(second.chat.pendingToolCalls.map((c) => c.name)).toEqual(['fail']);
  });

  it('a destructive tool waits for approval; the app may say otherwise', async () => {
    const careful = await open(server.url);
    const { chat } = await localChat([call('delete_file', { path: 'a.txt' })], { tools: [careful] });
    const reply = await chat.send('delete a.txt');
    expect(reply.approvals?.map((c) => c.name)).toEqual(['delete_file']);
    expect(server.state.deleted).toEqual([]);

    const trusting = await open(server.url, { needsApproval: false });
    const second = await localChat([call('delete_file', { path: 'b.txt' }), 'Deleted.'], { tools: [trusting] });
    await second.chat.send('delete b.txt');
    expect(server.state.deleted).toEqual(['b.txt']);
  });

  it('progress reaches tool-progress events; a timeout fails the call and the server is told to stop', async () => {
    const mcp = await open(server.url, { timeoutMs: 250 });
    const { chat, fake } = await localChat([call('slow_count', { steps: 2, delayMs: 20 }), call('slow_count', { steps: 50, delayMs: 100 }), 'Too slow.'], { tools: [mcp] });
    const progress: unknown[] = [];
    chat.on('tool-progress', (e) => progress.push(e.details));
    const ends: string[] = [];
    chat.on('tool-end', (e) => ends.push(e.status));
    await chat.send('count');
    expect(progress.slice(0, 2)).toEqual([
      { progress: 1, total: 2, message: 'step 1' },
      { progress: 2, total: 2, message: 'step 2' },
    ]);
    expect(ends).toEqual(['ok', 'timeout']);
    expect(results(fake.requests[2]!.last)).toEqual(['{"error":"Tool \\"slow_count\\" did not finish within 250 ms."}']);
    await expect.poll(() => server.state.cancelled.length).toBe(1);
  });

  it('an image is described for the model, not poured into the prompt', async () => {
    const mcp = await open(server.url);
    const { chat, fake } = await localChat([call('snapshot'), 'A pixel.'], { tools: [mcp] });
    await chat.send('look');
    expect(results(fake.requests[1]!.last)).toEqual(['["one pixel",{"image":"image/png","bytes":70}]']);
  });

  it('tools/list_changed: the chat offers the new list from its next run', async () => {
    const mcp = await open(server.url);
    const { chat, fake } = await localChat(['first', call('weather', { city: 'Oslo' }), 'Sunny.'], { tools: [mcp] });
    await chat.send('hi');
    const changed = new Promise((resolve) => chat.on('tools-changed', resolve));
    server.control('add-weather');
    expect(await changed).toEqual({ chatId: chat.id, names: ['add', 'slow_count', 'fail', 'delete_file', 'snapshot', 'weather'] });
    await chat.send('weather in Oslo?');
    expect(fake.requests[0]!.prompt).not.toContain('"weather"');
    expect(fake.requests[1]!.prompt).toContain('"weather"');
    expect(results(fake.requests[2]!.last)).toEqual(['"Sunny in Oslo"']);
  });

  it('namespaces names that clash, with the app’s own tools and between servers', async () => {
    const one = await open(server.url, { namespace: 'one', filter: (t) => t.name === 'add' || t.name === 'fail' });
    const two = await open(server.url, { namespace: 'two', filter: (t) => t.name === 'add' || t.name === 'snapshot' });
    const add = tool({ name: 'add', description: 'mine', input: z.object({}), run: () => 'local' });
    const { chat, fake } = await localChat([call('two_add', { a: 1, b: 1 }), 'ok'], { tools: [add, one, two] });
    expect(chat.tools.map((t) => t.name)).toEqual(['add', 'one_add', 'fail', 'two_add', 'snapshot']);
    await chat.send('go');
    expect(results(fake.requests[1]!.last)).toEqual(['{"sum":2}']);
    // Two servers with one namespace cannot be told apart.
    const twin = await open(server.url, { namespace: 'one', filter: (t) => t.name === 'add' });
    await expect(localChat(['x'], { tools: [one, twin] })).rejects.toSatisfy(isDuplicateToolError);
  });

  for (const what of ['forget-sessions', 'forget-sessions-400'] as const) {
    it(`a session the server forgot is replaced, whatever it answers (${what === 'forget-sessions' ? 404 : 400}): calls and refresh() go through`, async () => {
      const mcp = await open(server.url);
      const { chat, fake } = await localChat([call('add', { a: 1, b: 2 }), 'ok', call('add', { a: 2, b: 2 }), 'ok'], { tools: [mcp] });
      server.control(what);
      await chat.send('go');
      expect(results(fake.requests[1]!.last)).toEqual(['{"sum":3}']);
      server.control(what);
      server.control('add-weather');
      await mcp.refresh();
      expect(mcp.tools.map((t) => t.name)).toContain('weather');
      server.control(what);
      await chat.send('again');
      expect(results(fake.requests[3]!.last)).toEqual(['{"sum":4}']);
      expect(server.state.calls).toEqual([{ tool: 'add', a: 1, b: 2 }, { tool: 'add', a: 2, b: 2 }]);
    });
  }

  it('refresh() when no new session can be had: McpConnectionError; the tools stay', async () => {
    const other = await startMcpTestServer();
    const mcp = await open(other.url);
    await other.close();
    const error = await mcp.refresh().catch((e: unknown) => e);
    expect(isMcpConnectionError(error) && error.serverUrl).toBe(other.url);
    expect(mcp.tools).toHaveLength(5);
  });

  it('a tool’s real name wins over a name made from another (`files/read` and `files_read`)', async () => {
    const mcp = await open(`${server.origin}/names/mcp`);
    expect(mcp.tools.map((t) => t.name)).toEqual(['files_read_2', 'files_read']);
    const { chat, fake } = await localChat([call('files_read', {}), 'ok'], { tools: [mcp] });
    await chat.send('read');
    expect(results(fake.requests[1]!.last)).toEqual(['"the real files_read"']);
  });

  it('a server that went away: a typed error the model reads, and the chat goes on', async () => {
    const other = await startMcpTestServer();
    const mcp = await open(other.url);
    await other.close();
    const { chat, fake } = await localChat([call('add', { a: 1, b: 2 }), 'It is down.', 'Hello again.'], { tools: [mcp] });
    await chat.send('go');
    const error = JSON.parse(results(fake.requests[1]!.last)[0]!).error as string;
    expect(error).toMatch(/^MCP server http:\/\/127\.0\.0\.1:\d+\/mcp: /);
    expect((await chat.send('hello')).text).toBe('Hello again.');
  });

  it('a server that is not MCP, or refuses without a token: McpConnectionError', async () => {
    const garbage = await mcpTools(`${server.origin}/garbage/mcp`).catch((e: unknown) => e);
    expect(isMcpConnectionError(garbage)).toBe(true);
    const refused = await mcpTools(`${server.origin}/secure/mcp`).catch((e: unknown) => e);
    expect(isMcpConnectionError(refused) && { status: refused.httpStatus, unauthorized: refused.unauthorized }).toEqual({ status: 401, unauthorized: true });
    // A port nothing listens on (one that was just let go).
    const gone = await startMcpTestServer();
    await gone.close();
    const down = await mcpTools(gone.url).catch((e: unknown) => e);
    expect(isMcpConnectionError(down) && (down.cause as Error).message).toMatch(/fetch failed/);
    const withToken = await open(`${server.origin}/secure/mcp`, { token: 'secret-token' });
    const withHeader = await open(`${server.origin}/secure/mcp`, { headers: { Authorization: 'Bearer secret-token' } });
    expect([withToken.tools.length, withHeader.tools.length]).toEqual([5, 5]);
  });

  it('close: the server’s tools leave the chats that use it', async () => {
    const mcp = await mcpTools(server.url);
    const { chat } = await localChat(['x'], { tools: [mcp] });
    await mcp.close();
    expect(chat.tools).toEqual([]);
  });
});

describe('timeout errors', () => {
  it('are ToolTimeoutError under the return policy', async () => {
    const mcp = await open(server.url, { timeoutMs: 100, onError: 'return' });
    const { chat } = await localChat([call('slow_count', { steps: 10 })], { tools: [mcp] });
    const error = await chat.send('count').catch((e: unknown) => e);
    expect(isToolTimeoutError(error)).toBe(true);
  });
});

describe('mcpTools refuses bad options with InvalidOptionsError, before it connects', () => {
  it.each([
    ['url', ['http://[bad', {}]],
    ['options', ['http://127.0.0.1:9/mcp', null]],
    ['timeoutMs', ['http://127.0.0.1:9/mcp', { timeoutMs: 0 }]],
    ['connectTimeoutMs', ['http://127.0.0.1:9/mcp', { connectTimeoutMs: -1 }]],
    ['onError', ['http://127.0.0.1:9/mcp', { onError: 'throw' }]],
    ['elicit', ['http://127.0.0.1:9/mcp', { elicit: 'yes' }]],
    ['oauth.clientMetadataUrl', ['http://127.0.0.1:9/mcp', { oauth: { redirectUrl: 'http://app.example/', clientMetadataUrl: 'http://app.example/client.json' } }]],
  ] as const)('%s', async (option, args) => {
    const error = await mcpTools(...(args as unknown as Parameters<typeof mcpTools>)).catch((e: unknown) => e);
    expect(isInvalidOptionsError(error)).toBe(true);
    expect(error).toMatchObject({ option });
  });
});
