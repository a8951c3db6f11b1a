// A chat nobody holds is collectable, with or without a source of tools (an
// MCP server's, the page's WebMCP tools): the source's list of listeners
// must not keep it. Checked with V8's own collector, forced.
import { afterAll, describe, expect, it } from 'vitest';
import { startWildMcpServer } from '../../e2e/support/mcp-wild-server.mjs';
import { mcpTools } from '../sources/mcp/mcp-tools.js';
import { collected } from '../test-support/collect.js';
import { localAgent } from '../test-support/local-chat.js';
import type { ToolEntry, ToolSource } from '../tools/types.js';
import type { Agent } from '../agent/agent.js';

const server = await startWildMcpServer({ tools: [{ name: 'look_up', description: 'Look a word up', inputSchema: { type: 'object', properties: { word: { type: 'string' } } } }] });
afterAll(() => server.close());

/** A chat made, used and dropped in a scope of its own: only a WeakRef to it is left. */
async function dropped(agent: Agent, tools: ToolEntry[]): Promise<WeakRef<object>> {
  const chat = await agent.newChat({ tools });
  await chat.send('hi');
  return new WeakRef(chat);
}

describe('a chat nobody holds', () => {
  it('is collected', async () => {
    const { agent } = await localAgent(() => 'ok');
    expect(await collected(await dropped(agent, []))).toBe(true);
  });

  it('is collected with an MCP server’s tools, which the app still holds; the source stops calling it', async () => {
    const mcp = await mcpTools(server.url);
    const { agent } = await localAgent(() => 'ok');
    const ref = await dropped(agent, [mcp]);
    expect(await collected(ref)).toBe(true);
    // The source's list changes after the chat is gone: nothing to tell, nothing throws.
    await mcp.refresh();
    // A chat made now still hears of changes.
    const chat = await agent.newChat({ tools: [mcp] });
    const heard = new Promise((resolve) => chat.on('tools-changed', resolve));
    await mcp.refresh();
    expect(await heard).toEqual({ chatId: chat.id, names: ['look_up'] });
    await mcp.close();
  });

  it('leaves the sources it listened to once collected (as a source of the app’s own sees it)', async () => {
    const listeners = new Set<() => void>();
    const source: ToolSource = { kind: 'source', namespace: 'mine', tools: [], subscribe: (listener) => (listeners.add(listener), () => void listeners.delete(listener)) };
    const { agent } = await localAgent(() => 'ok');
    const ref = await dropped(agent, [source]);
    expect(listeners.size).toBe(1);
    expect(await collected(ref)).toBe(true);
    await expect.poll(() => listeners.size).toBe(0);
  });
});
