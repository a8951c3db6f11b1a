// README "A raw tool": the call comes back to the page, which answers it; then
// the model answers with the result.
import { toolCallText } from 'tabagent/testing';
import { check, readmeRun, useFakeScript } from '../../src/test-support/readme-model.js';

const printed: string[] = [];
const console = { log: (...values: unknown[]) => void printed.push(values.join(' ')) };
useFakeScript([toolCallText('search_web', { q: 'Boston news' }), 'The Boston Globe has it.']);

// #region readme
import { createAgent, rawTool } from 'tabagent';

const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const search = rawTool({
  name: 'search_web',
  description: 'Search the web',
  parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, // a JSON Schema
});

const chat = await agent.newChat({ tools: [search] });
let reply = await chat.send('Any news from Boston?');
for (const call of reply.toolCalls) {
  // The call is yours to run: here, a search of your own. The last answer runs the model again.
  reply = await chat.sendToolResult(call.id, { hits: [`Boston Globe: ${String(call.arguments.q)}`] });
}
console.log(reply.text);
// #endregion readme

check(printed.join('\n') === 'The Boston Globe has it.', JSON.stringify(printed));
const requests = readmeRun().fakes[0]!.requests;
check(requests.length === 2 && requests[1]!.last.includes('Boston Globe: Boston news'), JSON.stringify(requests.map((r) => r.last)));
