// docs/tools.md, "Approvals, hooks and policies": without an approve callback, a call
// that needs approval waits, stored, for a person; answered here from a
// reopened chat, as after a reload.
import { createAgent, tool } from 'tabagent';
import { toolCallsText } from 'tabagent/testing';
import { z } from 'zod';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript([
  toolCallsText([
    { name: 'delete_file', arguments: { path: 'old.log' } },
    { name: 'delete_file', arguments: { path: 'notes.txt' } },
  ]),
  'I deleted old.log and kept notes.txt.',
]);
const deleted: string[] = [];
const remove = tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => (deleted.push(path), { deleted: path }) });
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const card = { shown: [] as string[] };
const showApprovalCard = (callId: string, toolName: string, input: unknown) => card.shown.push(`${toolName} ${JSON.stringify(input)} ${callId.slice(0, 5)}`);
const chatId = (await agent.newChat({ tools: [remove] })).id;

// #region readme
// Part of examples/docs/tools/05-approvals-that-wait.ts, which defines `agent`, `chatId`, `remove` and `showApprovalCard`.
const chat = await agent.openChat(chatId, { tools: [remove] }); // no approve callback
chat.on('approval-request', ({ callId, toolName, input }) => showApprovalCard(callId, toolName, input));
let reply = await chat.send('Clean up my files');
reply.approvals; // the calls waiting for a person: stored with the chat

// Later — after a reload, or in another tab — the person decides:
const again = await agent.openChat(chatId, { tools: [remove] });
for (const call of again.pendingToolCalls.filter((c) => c.awaitingApproval)) {
  reply = call.arguments.path === 'old.log' ? await again.approve(call.id) : await again.deny(call.id, 'keep my notes');
}
console.log(reply.text); // once every call is answered, the run goes on
// #endregion readme

check(deleted.join() === 'old.log', deleted.join());
check(reply.text === 'I deleted old.log and kept notes.txt.', reply.text);
check(card.shown.length === 2, JSON.stringify(card.shown));
