// docs/runs.md, "Steering a run": stop conditions, prepareStep, per-send settings, setTools.
import { createAgent, tool } from 'tabagent';
import { toolCallText } from 'tabagent/testing';
import { z } from 'zod';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript([toolCallText('read', { url: 'https://example.com/' }), toolCallText('read', { url: 'https://example.com/more' }), toolCallText('answer', { text: 'A page about examples.' })]);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const search = tool({ name: 'search', description: 'Search the web', input: z.object({ q: z.string() }), run: ({ q }) => ({ hits: [`https://example.com/?q=${q}`] }) });
const read = tool({ name: 'read', description: 'Read a page', input: z.object({ url: z.string() }), run: ({ url }) => ({ url, text: 'Example Domain. This domain is for use in examples.' }) });
const answer = tool({ name: 'answer', description: 'Give the final answer', input: z.object({ text: z.string() }), run: ({ text }) => text });
const translate = tool({ name: 'translate', description: 'Translate text', input: z.object({ text: z.string(), to: z.string() }), run: ({ text }) => text });

// #region readme
// Part of examples/docs/runs/02-steering.ts, which defines `agent` and the tools.
import { hasToolCall, hopCountIs } from 'tabagent';

const chat = await agent.newChat({
  tools: [search, read, answer],
  // End the run early, resolving normally with that step's calls left pending:
  stopWhen: [hasToolCall('answer'), hopCountIs(4), ({ steps }) => steps.at(-1)!.text.includes('DONE')],
  // Change the next model call only: its tools, tool choice, generation or system prompt.
  prepareStep: ({ hop }) => (hop >= 2 ? { activeTools: ['answer'], toolChoice: { name: 'answer' } } : undefined),
});

// Per send: which tools, which tool choice, which generation settings (over the chat's).
await chat.send('Summarise the page', { activeTools: ['read', 'answer'], toolChoice: { name: 'read' }, generation: { maxTokens: 200 } });
await chat.setTools([search, read, answer, translate]); // for the runs after this; stored by name
// #endregion readme

const [pending] = chat.pendingToolCalls;
check(pending?.name === 'answer' && pending.arguments.text === 'A page about examples.', JSON.stringify(chat.pendingToolCalls));
const turns = chat.messages.filter((m) => m.role === 'assistant');
check(turns.map((m) => m.activeTools?.join('+')).join(', ') === 'read+answer, read+answer, answer', JSON.stringify(turns));
check(chat.tools.map((t) => t.name).join() === 'search,read,answer,translate', 'setTools');
