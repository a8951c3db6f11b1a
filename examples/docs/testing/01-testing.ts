// docs/testing.md, "The fake model": the fake model given to createAgent, a chat
// driven on it, then its record checked.
import { tool } from 'tabagent';
import { z } from 'zod';
import { check } from '../../../src/test-support/readme-model.js';

const weather = tool({ name: 'get_weather', description: 'Get a weather forecast', input: z.object({ location: z.string() }), run: ({ location }) => ({ location, forecast: 'sunny' }) });

// #region readme
// Part of examples/docs/testing/01-testing.ts, which defines the `weather` tool.
import { createAgent } from 'tabagent';
import { fakeModel, toolCallText } from 'tabagent/testing';

// One raw output per generation…
const fake = fakeModel([toolCallText('get_weather', { location: 'Boston, MA' }), 'Sunny in Boston.']);
// …or a function of the request (the conversation as the model would read it).
const echo = fakeModel((request) => (request.last.includes('<tool_response>') ? 'Done.' : toolCallText('get_weather', { location: 'Oslo' })));

const agent = await createAgent({ model: fake });
// … drive your app; here, a chat with the get_weather tool:
const chat = await agent.newChat({ tools: [weather] });
await chat.send('Weather in Boston?');
fake.requests; // every request: messages, the exact prompt, prefilled tokens (promptTokens), the grammar (responseFormat), turn
fake.assertComplete(); // every scripted output was used
// #endregion readme

check(fake.requests.length === 2 && fake.requests[1]!.last.includes('"forecast":"sunny"'), JSON.stringify(fake.requests.map((r) => r.last)));
check(typeof echo.assertComplete === 'function', 'echo is a fake too');
