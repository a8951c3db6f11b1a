// docs/runs.md, "A chat and its replies": a chat's options, and what a reply holds.
import { createAgent, rawTool, tool } from 'tabagent';
import { toolCallText } from 'tabagent/testing';
import { z } from 'zod';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript([toolCallText('add', { a: 2, b: 3 }), 'It is 5.']);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const add = tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
const search = rawTool({ name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });

// #region readme
// Part of examples/docs/runs/01-chats.ts, which defines `agent` and the tools `add` and `search`.
const chat = await agent.newChat({
  system: 'You are concise.',
  tools: [add, search],
  maxToolHops: 5, // model → tools → model round trips per run (≥ 1; InvalidOptionsError otherwise)
  maxConcurrentTools: 1, // handlers of one turn at once (results keep the model's order)
  toolChoice: 'auto', // 'required', 'none', or { name: 'add' }
  generation: { temperature: 0.7, maxTokens: 512 },
});

const reply = await chat.send('What is 2 + 3?');
reply.text; // what the model said, without call markup or reasoning
reply.toolCalls; // calls waiting for you; [] when the turn is done
reply.steps; // every model call of the run: its text, reasoning, calls, results, usage, timings
reply.stats; // their sum: { hops, toolCalls, modelCalls, promptTokens, completionTokens, modelMs, toolMs, … }
// #endregion readme

check(reply.text === 'It is 5.' && reply.toolCalls.length === 0, JSON.stringify(reply));
check(reply.steps.map((s) => s.toolResults.map((r) => r.content).join()).join('|') === '5|', JSON.stringify(reply.steps));
const { hops, toolCalls, modelCalls } = reply.stats;
check(hops === 1 && toolCalls === 1 && modelCalls === 2, JSON.stringify(reply.stats));
