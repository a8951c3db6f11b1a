// README "A managed tool": the model calls get_weather, tabagent runs it and
// feeds the result back, and the model answers.
import { toolCallText } from 'tabagent/testing';
import { check, readmeRun, useFakeScript } from '../../src/test-support/readme-model.js';

const printed: string[] = [];
const console = { log: (...values: unknown[]) => void printed.push(values.join(' ')) };
useFakeScript([toolCallText('get_weather', { location: 'Boston, MA' }), 'Sunny in Boston, 24 °C.']);

// #region readme
import { createAgent, tool } from 'tabagent';
import { z } from 'zod';

const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' }); // downloads once, then from the cache

const weather = tool({
  name: 'get_weather',
  description: 'Get a weather forecast for a US city',
  input: z.object({ location: z.string().describe("city and state, e.g. 'Boston, MA'") }),
  run: async ({ location }) => ({ location, forecast: 'sunny, 24 °C' }), // your code; `location` is a string
});

const chat = await agent.newChat({ system: 'You are concise.', tools: [weather] });
const reply = await chat.send('What is the weather in Boston?'); // calls get_weather, reads the result, answers
console.log(reply.text);
// #endregion readme

check(printed.join('\n') === 'Sunny in Boston, 24 °C.', JSON.stringify(printed));
const requests = readmeRun().fakes[0]!.requests;
check(requests.length === 2 && requests[1]!.last.includes('"forecast":"sunny, 24 °C"'), JSON.stringify(requests.map((r) => r.last)));
