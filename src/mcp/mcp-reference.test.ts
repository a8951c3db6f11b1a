// mcpTools against the MCP reference server (@modelcontextprotocol/server-everything,
// run as it ships, in a child process): what a server tabagent did not write does.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../e2e/support/reference-mcp-server.mjs';
import { toolCallText as call } from '../testing/calls.js';
import { localChat } from '../test-support/local-chat.js';
import { mcpTools, type McpServerTools } from './mcp-tools.js';

let reference: ReferenceServer;
const opened: McpServerTools[] = [];
const open = async (...args: Parameters<typeof mcpTools>) => {
  const tools = await mcpTools(...args);
  opened.push(tools);
  return tools;
};

beforeAll(async () => {
  reference = await startReferenceServer();
}, 20_000);
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
});
afterAll(() => reference.close());

/** What the model read of each result, in order. */
const results = (last: string) => last.split('</tool_response>').filter((b) => b.includes('<tool_response>')).map((b) => b.split('<tool_response>\n')[1]!.trim());

describe('the reference server', () => {
  it('restarted (it answers the old session HTTP 400): refresh() and calls get a new session', async () => {
    const mcp = await open(reference.url);
    expect(mcp.server.name).toBe('mcp-servers/everything');
    await reference.restart();
    await mcp.refresh();
    expect(mcp.tools.map((t) => t.name)).toContain('get-sum');
    await reference.restart();
    const { chat, fake } = await localChat([call('get-sum', { a: 1, b: 2 }), 'It is 3.'], { tools: [mcp] });
    expect((await chat.send('1 + 2?')).text).toBe('It is 3.');
    expect(results(fake.requests[1]!.last)).toEqual(['"The sum of 1 and 2 is 3."']);
  }, 30_000);
});
