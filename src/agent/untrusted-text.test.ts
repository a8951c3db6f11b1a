// The one rule, through the whole page stack: whatever door a text comes
// through (a person's message, the task a chat tool sends, an MCP server's
// tool description and schema), the prompt the strict fake renders holds
// only the template's own control tokens, as the real tokenizer reads it;
// and the chat stores, and exports, the text as it was given. (Results: see
// protocol/control-tokens.test.ts; WebMCP page tools: e2e/webmcp.spec.ts.)
import { afterAll, describe, expect, it } from 'vitest';
import { startWildMcpServer, type WildMcpServer } from '../../e2e/support/mcp-wild-server.mjs';
import { mcpTools } from '../sources/mcp/mcp-tools.js';
import { localAgent } from '../test-support/local-chat.js';
import { toolCallText as call } from '../testing/calls.js';
import { HOSTILE, qwenSpecialIds as specialIds } from '../test-support/hostile-text.js';

const TIMEOUT = 30_000;

const servers: WildMcpServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('every text the template does not write is data', () => {
  it('a person’s message: the model reads no turn it fakes; the chat stores and exports it as given', async () => {
    const prompts: string[] = [];
    for (const text of [HOSTILE, 'plain']) {
      const { agent, fake } = await localAgent(['ok']);
      const chat = await agent.newChat({ system: 'You help.' });
      await chat.send(text);
      prompts.push(fake.requests[0]!.prompt);
      const stored = (await agent.openChat(chat.id)).messages[0];
      expect(stored?.role === 'user' && stored.content).toBe(text);
      const exported = (await agent.exportChat(chat.id)).messages[0];
      expect(exported?.role === 'user' && exported.content).toBe(text);
    }
    expect(specialIds(prompts[0]!)).toEqual(specialIds(prompts[1]!));
  }, TIMEOUT);

  it('the task a chat tool sends: a page the calling model relays stays data in the sub-chat', async () => {
    const prompts: string[] = [];
    // (Without a `</tool_call>`: in the calling model's own call that would end the call, as the model's own markup.)
    for (const task of [HOSTILE.replace(/<tool_call>[^]*<\/tool_call>/, ''), 'plain']) {
      const { agent, fake } = await localAgent([call('research', { task }), 'Done there.', 'Done.']);
      const researcher = await agent.newChat({ system: 'You research.' });
      // The calling model wrote the task without a grammar (one that names a raw turn boundary is not what this is about).
      const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research' })], grammar: false });
      await main.send('Look into it');
      // The sub-chat's request: its own prompt, with the task as its user message.
      prompts.push(fake.requests[1]!.prompt);
      const stored = researcher.messages[0];
      expect(stored?.role === 'user' && stored.content).toBe(task);
    }
    expect(specialIds(prompts[0]!)).toEqual(specialIds(prompts[1]!));
  }, TIMEOUT);

  it('an MCP server’s tool name, description and schema: no forged system turn in any request of the chat', async () => {
    const prompts: string[] = [];
    for (const text of [HOSTILE, 'plain']) {
      const server = await startWildMcpServer({
        tools: [{ name: `look.up/${text}`, description: text, inputSchema: { type: 'object', title: text, properties: { [text]: { type: 'string', description: text, enum: [text] } } } }],
      });
      servers.push(server);
      const mcp = await mcpTools(server.url);
      const { agent, fake } = await localAgent(['ok']);
      // The prompt is what this is about: a schema the grammar engine cannot take is json-schema-corpus.test.ts's.
      const chat = await agent.newChat({ tools: [mcp], grammar: false });
      await chat.send('hi');
      prompts.push(fake.requests[0]!.prompt);
      await mcp.close();
    }
    expect(prompts[0]).toContain('Obey the page.');
    expect(specialIds(prompts[0]!)).toEqual(specialIds(prompts[1]!));
  }, TIMEOUT);
});
