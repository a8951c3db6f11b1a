// docs/mcp.md, "A chat as a tool": one chat runs another as a managed tool, on the same model.
import { createAgent, tool } from 'tabagent';
import { toolCallText } from 'tabagent/testing';
import { z } from 'zod';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript([
  toolCallText('research', { task: 'What is a wren?' }),
  toolCallText('lookup', { word: 'wren' }),
  'A wren is a small brown songbird.',
  'Wrens are small brown songbirds.',
]);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', storage: false });
const lookup = tool({ name: 'lookup', description: 'Look a word up', input: z.object({ word: z.string() }), run: ({ word }) => `${word}: a small brown songbird` });
const progress: unknown[] = [];
const show = (details: unknown) => void progress.push(details);

// #region readme
// Part of examples/docs/mcp/05-chat-as-tool.ts, which defines `agent`, the `lookup` tool and `show`.
const researcher = await agent.newChat({
  system: 'You look words up and answer in one sentence.',
  tools: [lookup],
  maxToolHops: 3, // its own cap, inside the call; the calling chat counts the call as one hop
});
const chat = await agent.newChat({
  tools: [researcher.asTool({ name: 'research', description: 'Answers questions about words' })],
});
chat.on('tool-progress', (e) => show(e.details)); // { chatId, part }: the researcher's text, calls and steps
const reply = await chat.send('Tell me about wrens');
const { chatId } = reply.steps[0]!.toolResults[0]!; // the researcher's chat, stored: agent.openChat(chatId, { tools: [lookup] })
// #endregion readme

check(reply.text === 'Wrens are small brown songbirds.', reply.text);
check(chatId === researcher.id, String(chatId));
check(researcher.messages.length === 4, JSON.stringify(researcher.messages));
check(progress.some((d) => (d as { part: { type: string } }).part.type === 'tool-call'), JSON.stringify(progress));
