// docs/tools.md, "Answering calls": each way of answering the calls a turn hands
// back, in turn, on a model that keeps calling search_web.
import { createAgent, rawTool, tool } from 'tabagent';
import { toolCallsText } from 'tabagent/testing';
import { z } from 'zod';
import { check, readmeRun, useFakeScript } from '../../../src/test-support/readme-model.js';

const searches = (...qs: string[]) => toolCallsText(qs.map((q) => ({ name: 'search_web', arguments: { q } })));
useFakeScript([
  searches('Oslo news', 'Bergen news'),
  searches('Oslo weather', 'Bergen weather'),
  searches('Oslo events'),
  toolCallsText([
    { name: 'add', arguments: { a: 2, b: 3 } },
    { name: 'search_web', arguments: { q: 'Trondheim news' } },
  ]),
]);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const add = tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
const search = rawTool({ name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
const chat = await agent.newChat({ tools: [add, search] });
let reply = await chat.send('What is new in Norway?');

// #region readme
// Part of examples/docs/tools/03-answering-calls.ts, where `chat` and its `reply` come before.
// One at a time: each answer returns the reply so far; the last one runs the model.
for (const call of reply.toolCalls) reply = await chat.sendToolResult(call.id, { hits: [] });
// Or all at once.
reply = await chat.sendToolResults(reply.toolCalls.map((call) => ({ callId: call.id, result: { hits: [] } })));
// A call that failed on your side: the model reads {"error": "…"}, as with onError: 'inform'.
for (const call of reply.toolCalls) reply = await chat.sendToolResult(call.id, { error: 'The search service is down.' });
// (or sendToolResults([{ callId, result: 'The search service is down.', isError: true }]))
// A managed call in a returned turn: run it by hand (same as answering it).
for (const call of reply.toolCalls) if (call.name === 'add') reply = await chat.runTool(call);
// Or give up on the pending calls, so the chat can move on.
await chat.cancelToolCalls('The user moved on.');
// #endregion readme

const [fake] = readmeRun().fakes;
const read = fake!.requests.map((r) => r.last);
check(read[1] === '<tool_response>\n{"hits":[]}\n</tool_response>\n<tool_response>\n{"hits":[]}\n</tool_response>', read[1]!);
check(read[2] === read[1], read[2]!);
check(read[3] === '<tool_response>\n{"error":"The search service is down."}\n</tool_response>', read[3]!);
check(chat.pendingToolCalls.length === 0, 'calls still pending');
const last = chat.messages.at(-1);
check(last?.role === 'tool' && last.results.map((r) => `${r.name}: ${r.status}`).join(', ') === 'add: ok, search_web: cancelled', JSON.stringify(last));
