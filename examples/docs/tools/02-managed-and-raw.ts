// docs/tools.md, "Raw tools": a mixed turn (get_weather, managed, beside
// search_web, raw) comes back whole; the loop answers the raw call and runs
// the managed one, then the model answers.
import { toolCallsText } from 'tabagent/testing';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

const printed: string[] = [];
const console = { log: (...values: unknown[]) => void printed.push(values.join(' ')) };

useFakeScript([
  toolCallsText([
    { name: 'get_weather', arguments: { location: 'Boston, MA' } },
    { name: 'search_web', arguments: { q: 'Boston news' } },
  ]),
  'Sunny in Boston, 24 °C. In the news: the Boston Globe on Boston news.',
]);

// #region readme
import { createAgent, tool, rawTool } from 'tabagent';
import { z } from 'zod';

const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });

const weather = tool({
  name: 'get_weather',
  description: 'Get a weather forecast for a US city',
  input: z.object({ location: z.string().describe("city and state, e.g. 'Boston, MA'") }),
  run: async ({ location }) => ({ location, forecast: 'sunny, 24 °C' }),
});
const search = rawTool({
  name: 'search_web',
  description: 'Search the web',
  parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
});
const searchWeb = async (q: string) => ({ hits: [`Boston Globe: ${q}`] }); // your own code

const chat = await agent.newChat({ system: 'You are concise.', tools: [weather, search] });
let reply = await chat.send('Weather and news in Boston?'); // get_weather runs by itself…
// …but a turn with a raw call comes back whole: answer search_web, run the managed calls beside it.
while (reply.toolCalls.length > 0) {
  for (const call of reply.toolCalls) {
    reply = call.name === 'search_web' ? await chat.sendToolResult(call.id, await searchWeb(String(call.arguments.q))) : await chat.runTool(call);
  }
}
console.log(reply.text);
// #endregion readme

check(printed.join('\n') === 'Sunny in Boston, 24 °C. In the news: the Boston Globe on Boston news.', `printed ${JSON.stringify(printed)}`);
const results = chat.messages.filter((m) => m.role === 'tool').flatMap((m) => m.results);
check(results.map((r) => `${r.name} ${r.status}: ${r.content}`).join('\n') === ['get_weather ok: {"location":"Boston, MA","forecast":"sunny, 24 °C"}', 'search_web ok: {"hits":["Boston Globe: Boston news"]}'].join('\n'), JSON.stringify(results));
