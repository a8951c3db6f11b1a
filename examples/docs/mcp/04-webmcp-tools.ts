// docs/mcp.md, "WebMCP". This runs in
// Node, which has no document.modelContext, as most browsers today: the
// feature-detected path. e2e/webmcp.spec.ts runs the same calls against the
// WebMCP polyfill in Chromium.
import { createAgent, isWebMcpUnavailableError, registerWebMcpTools, tool, webMcpTools, type WebMcpTools } from 'tabagent';
import { toolCallText } from 'tabagent/testing';
import { z } from 'zod';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

const notes = new Map([['n1', 'Buy milk']]);
useFakeScript([toolCallText('read_note', { id: 'n1' }), 'It says: Buy milk.']);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', storage: false });

// #region readme
// Part of examples/docs/mcp/04-webmcp-tools.ts, which has the imports, `notes` and `agent`.
const readNote = tool({
  name: 'read_note',
  description: 'Read a note by its id',
  input: z.object({ id: z.string() }),
  readOnly: true, // WebMCP's readOnlyHint
  run: ({ id }) => notes.get(id) ?? 'no such note',
});
const deleteNote = tool({
  name: 'delete_note',
  description: 'Delete a note',
  input: z.object({ id: z.string() }),
  needsApproval: true,
  run: ({ id }) => notes.delete(id),
});

// The browser's agent may call them too. Without WebMCP this does nothing.
const unregister = await registerWebMcpTools([readNote, deleteNote], {
  approve: (call) => confirm(`Let the browser's agent run ${call.toolName}?`),
});

// The tools the page (or a script it embeds) registered on document.modelContext.
let pageTools: WebMcpTools | undefined;
try {
  pageTools = await webMcpTools();
} catch (error) {
  if (!isWebMcpUnavailableError(error)) throw error; // this browser has no WebMCP
}
const chat = await agent.newChat({ tools: [readNote, deleteNote, ...(pageTools ? [pageTools] : [])] });
const reply = await chat.send('What does note n1 say?');
// #endregion readme

check(pageTools === undefined, 'Node has no WebMCP');
check(reply.text === 'It says: Buy milk.', reply.text);
unregister();
