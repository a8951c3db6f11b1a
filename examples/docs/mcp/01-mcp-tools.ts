// docs/mcp.md, "MCP servers": a real MCP server (the official
// SDK's, e2e/support/mcp-server.mjs), its tools beside one of the app's own.
import { createAgent, mcpTools, tool } from 'tabagent';
import { toolCallText } from 'tabagent/testing';
import { z } from 'zod';
import { startMcpTestServer } from '../../../e2e/support/mcp-server.mjs';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

const testServer = await startMcpTestServer();
// The server's protected path: it answers only with the token below.
const url = testServer.url.replace(/\/mcp$/, '/secure/mcp');
const signedIn = { token: 'secret-token' };
const myAdd = tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
useFakeScript([toolCallText('tabagent-test_add', { a: 2, b: 3 }), 'It is 5.']);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', storage: false });

// #region readme
// Part of examples/docs/mcp/01-mcp-tools.ts, which has the imports, `url`, `signedIn`, `myAdd` and `agent`.
const server = await mcpTools(url, {
  token: async () => signedIn.token, // a bearer token; or headers: { … }, or authProvider (OAuth)
  timeoutMs: 30_000, // then MCP's cancellation, and ToolTimeoutError
});
const chat = await agent.newChat({
  tools: [myAdd, server], // the server's `add` clashes with yours: the model sees `tabagent-test_add`
  system: server.instructions,
});
chat.on('tool-progress', (e) => console.log(e.details)); // { progress, total, message } from the server
chat.on('tools-changed', (e) => console.log(e.names)); // the server sent tools/list_changed
chat.on('tool-warning', (w) => console.warn(w.toolName, w.message)); // what of a server's schema the checks leave out
const reply = await chat.send('What is 2 + 3?');
// #endregion readme

check(reply.text === 'It is 5.', reply.text);
check(JSON.stringify(testServer.state.calls) === '[{"tool":"add","a":2,"b":3}]', JSON.stringify(testServer.state.calls));
check(chat.tools.map((t) => t.name).join() === 'add,tabagent-test_add,slow_count,fail,delete_file,snapshot', chat.tools.map((t) => t.name).join());
await server.close();
await testServer.close();
