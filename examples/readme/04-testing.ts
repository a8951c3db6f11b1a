// README "Testing with the fake model": a unit test of an app's tool on
// scripted model output, with the rest of tabagent running for real.
import { check } from '../../src/test-support/readme-model.js';

const console = { assert: (condition: unknown, message?: string) => check(condition, message ?? 'console.assert') };

// #region readme
import { createAgent, tool } from 'tabagent';
import { fakeModel, toolCallText } from 'tabagent/testing';
import { z } from 'zod';

// Scripted output instead of a model: one reply per generation. The rest runs as it does in the app.
const fake = fakeModel([toolCallText('add', { a: 2, b: 3 }), 'It is 5.']);
const agent = await createAgent({ model: fake, storage: false }); // chats in memory: nothing to clean up
const add = tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });

const chat = await agent.newChat({ tools: [add] });
const reply = await chat.send('What is 2 + 3?');
console.assert(reply.text === 'It is 5.');
console.assert(fake.requests[1]!.last.includes('5')); // the tool's result went back to the model
fake.assertComplete(); // every scripted output was used
// #endregion readme
