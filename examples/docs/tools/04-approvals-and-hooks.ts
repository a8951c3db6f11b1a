// docs/tools.md, "Approvals, hooks and policies": one call the user approves, one they refuse.
import { createAgent, tool } from 'tabagent';
import { toolCallsText } from 'tabagent/testing';
import { z } from 'zod';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript([
  toolCallsText([
    { name: 'delete_file', arguments: { path: '/home/ada/notes.txt' } },
    { name: 'delete_file', arguments: { path: '/home/ada/taxes.txt' } },
  ]),
  'I deleted your notes; your taxes stay.',
]);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const asked: string[] = [];
// The page's own dialog: yes to the notes only.
const confirm = (question: string) => {
  asked.push(question);
  return question.includes('notes');
};
const offline = false;
const redact = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replaceAll('/home/ada/', '~/'));

// #region readme
// Part of examples/docs/tools/04-approvals-and-hooks.ts, which has the imports, `agent`, `offline` and `redact`.
const remove = tool({
  name: 'delete_file',
  description: 'Delete a file',
  input: z.object({ path: z.string() }),
  destructive: true, // or readOnly: true; for your UI and policies
  needsApproval: true, // or ({ path }) => path.startsWith('/')
  retry: { attempts: 3, backoffMs: (n) => n * 500, retryOn: (e) => /503/.test(String(e)) },
  timeoutMs: 10_000, // ctx.signal aborts, then ToolTimeoutError under the tool's policy (never retried)
  run: async ({ path }, ctx) => {
    ctx.update({ status: 'deleting' });
    return { deleted: path };
  },
});

const chat = await agent.newChat({
  tools: [remove],
  approve: async (call) => confirm(`Run ${call.toolName}(${JSON.stringify(call.input)})?`) || { approved: false, reason: 'the user said no' },
  beforeToolCall: (call) => (call.destructive && offline ? { block: 'offline' } : undefined),
  afterToolCall: (call, outcome) => (outcome.ok ? { result: redact(outcome.result) } : undefined),
});
// #endregion readme

const progress: unknown[] = [];
chat.on('tool-progress', ({ details }) => void progress.push(details));
const reply = await chat.send('Delete my notes and my taxes.');
check(reply.text === 'I deleted your notes; your taxes stay.', reply.text);
check(asked.join('\n') === ['Run delete_file({"path":"/home/ada/notes.txt"})?', 'Run delete_file({"path":"/home/ada/taxes.txt"})?'].join('\n'), JSON.stringify(asked));
const [notes, taxes] = reply.steps[0]!.toolResults;
check(notes?.status === 'ok' && notes.content === '{"deleted":"~/notes.txt"}', JSON.stringify(notes));
check(taxes?.status === 'denied' && taxes.content.includes('the user said no'), JSON.stringify(taxes));
check(JSON.stringify(progress) === '[{"status":"deleting"}]', JSON.stringify(progress));
