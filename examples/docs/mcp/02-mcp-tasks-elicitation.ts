// docs/mcp.md, "MCP servers", tasks and elicitation: a real
// server whose `render` tool runs as a task (the SDK's task runtime,
// e2e/support/mcp-task-server.mjs).
import { createAgent, mcpTools, type McpElicitationSchema } from 'tabagent';
import { toolCallText } from 'tabagent/testing';
import { startMcpTaskServer } from '../../../e2e/support/mcp-task-server.mjs';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

const taskServer = await startMcpTaskServer();
const url = taskServer.url;
/** The app's own form; here it takes every default. */
async function showForm(_message: string, _schema: McpElicitationSchema): Promise<Record<string, string> | undefined> {
  return {};
}
useFakeScript([toolCallText('render', { scene: 'intro', steps: 2, stepMs: 20 }), 'The intro is rendered.']);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', storage: false });
const chat = await agent.newChat({ tools: [] });
const id = chat.id;

// #region readme
// Part of examples/docs/mcp/02-mcp-tasks-elicitation.ts, which has the imports, `url`, `showForm`, `agent` and a chat `id`.
const server = await mcpTools(url, {
  asTasks: true, // long tools that allow it run as tasks, and survive a reload
  timeoutMs: 10 * 60_000,
  elicit: async (request) => {
    if (request.mode === 'url') return confirm(`Open ${request.url}?`) ? { action: 'accept' } : { action: 'decline' };
    const content = await showForm(request.message, request.requestedSchema); // your form, built as text
    return content ? { action: 'accept', content } : { action: 'cancel' };
  },
});
// After a reload: resume the calls cut off in the middle of a task.
const reopened = await agent.openChat(id, { tools: [server] });
for (const call of reopened.pendingToolCalls) if (call.resumable) await reopened.runTool(call);
// #endregion readme

await reopened.setTools([server]);
const reply = await reopened.send('Render the intro');
check(reply.text === 'The intro is rendered.', reply.text);
check(JSON.stringify(taskServer.state.calls) === '[{"tool":"render","asTask":true}]', JSON.stringify(taskServer.state.calls));
await server.close();
await taskServer.close();
