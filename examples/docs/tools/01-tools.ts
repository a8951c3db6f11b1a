// docs/tools.md, "Managed tools": a typed tool, then a run that calls it.
import { createAgent } from 'tabagent';
import { toolCallText } from 'tabagent/testing';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript([toolCallText('add', { a: 2, b: 3 }), '2 + 3 = 5.']);

// #region readme
import { tool } from 'tabagent';
import { z } from 'zod';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }), // a zod object schema
  onError: 'inform', // or 'return' (the default)
  run: async ({ a, b }, { callId, signal }) => a + b, // types flow from `input`
});
// #endregion readme

const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', storage: false });
const chat = await agent.newChat({ tools: [add] });
const reply = await chat.send('What is 2 + 3?');
const [result] = reply.steps[0]?.toolResults ?? [];
check(result?.content === '5' && result.status === 'ok' && result.attempts === 1, JSON.stringify(result));
check(reply.text === '2 + 3 = 5.', reply.text);
