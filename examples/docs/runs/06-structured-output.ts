// docs/runs.md, "Structured output and one-shot tasks".
import { createAgent, tool } from 'tabagent';
import { toolCallText } from 'tabagent/testing';
import { z } from 'zod';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript([
  '{"city": "Oslo", "days": 2, "stops": ["Vigeland Park", "Opera House"]}',
  { text: '{"city": "Bergen", "days": 2, "stops": ["Bryggen", "Fløyen"]}', tokenDelayMs: 1 },
  toolCallText('add', { a: 2, b: 3 }),
  '2 + 3 = 5.',
  '{"city": "Rome", "days": 1, "stops": ["Colosseum"]}',
]);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const add = tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
const chat = await agent.newChat({ tools: [add] });
const rendered: unknown[] = [];
const render = (partial: unknown) => void rendered.push(partial);

// #region readme
// Part of examples/docs/runs/06-structured-output.ts, which has the imports, `agent`, `chat`, `add` and `render`.
const Trip = z.object({ city: z.string(), days: z.number().int(), stops: z.array(z.string()) });

const { object } = await chat.generateObject({ schema: Trip, prompt: 'Plan two days in Oslo' });
object.stops; // string[]: typed from the schema

const stream = chat.generateObjectStream({ schema: Trip, prompt: 'Now Bergen' });
for await (const partial of stream) render(partial); // the object as it grows (not yet checked)
const bergen = (await stream.result).object;

// Without a stored chat: the same loop, for one-shot tasks.
const reply = await agent.generate({ system: 'You add numbers.', tools: [add], prompt: 'What is 2 + 3?' });
const facts = await agent.generateObject({ schema: Trip, messages: [{ role: 'user', content: 'Plan a day in Rome' }] });
// #endregion readme

check(object.stops.join() === 'Vigeland Park,Opera House', JSON.stringify(object));
// How many partials a reader sees depends on how fast it reads: a stream merges the text a slow
// reader has not taken yet (so a loaded machine may see one). That it grows is generate.test.ts's to show.
check(rendered.length >= 1 && JSON.stringify(rendered.at(-1)) === JSON.stringify(bergen), JSON.stringify(rendered));
check(bergen.stops.join() === 'Bryggen,Fløyen', JSON.stringify(bergen));
check(reply.text === '2 + 3 = 5.' && reply.messages.length === 4, JSON.stringify(reply.messages));
check(facts.object.city === 'Rome', JSON.stringify(facts.object));
check(chat.messages.length === 4, 'generateObject adds the prompt and the answer to the chat');
