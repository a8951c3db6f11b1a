// docs/runs.md, "Streaming": a run read as a stream of parts.
import { createAgent, tool, type Reply } from 'tabagent';
import { toolCallsText } from 'tabagent/testing';
import { z } from 'zod';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript([toolCallsText([{ name: 'get_weather', arguments: { location: 'Oslo' } }], 'hermes', 'Let me check the weather.'), 'Pack for sun: 24 °C in Oslo.']);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const weather = tool({ name: 'get_weather', description: 'Get a weather forecast', input: z.object({ location: z.string() }), run: ({ location }) => ({ location, forecast: 'sunny, 24 °C' }) });
const chat = await agent.newChat({ tools: [weather] });
const output = { textContent: '' };
const logged: string[] = [];
const log = (line: string) => void logged.push(line);
let reply: Reply | undefined;

// #region readme
// Part of examples/docs/runs/03-streaming.ts, which defines `chat`, `output` and `log`.
for await (const part of chat.sendStream('Plan a trip to Oslo')) {
  if (part.type === 'text') output.textContent += part.text; // every step's text, as it is written
  else if (part.type === 'tool-call') log(`calling ${part.call.name}`);
  else if (part.type === 'tool-result') log(`${part.result.name}: ${part.result.status} in ${part.result.durationMs} ms`);
  else if (part.type === 'final') reply = part.reply; // exactly one, last: text, toolCalls for you, steps, stats
}
// sendToolResultsStream([...]) streams the answer to raw calls the same way.
// #endregion readme

check(reply?.text === 'Pack for sun: 24 °C in Oslo.', JSON.stringify(reply));
check(output.textContent.startsWith('Let me check the weather.') && output.textContent.endsWith('Pack for sun: 24 °C in Oslo.'), output.textContent);
check(logged.length === 2 && logged[0] === 'calling get_weather' && /^get_weather: ok in [\d.]+ ms$/.test(logged[1]!), JSON.stringify(logged));
