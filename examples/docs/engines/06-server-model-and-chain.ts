// docs/engines.md, "A server model, and one chain across engines": a server
// model through a real AI SDK provider (@ai-sdk/openai-compatible) over real
// HTTP to e2e/support/chat-server.mjs, a chat-completions server that answers
// by rule (no model behind it); then a chain across engines. (Under test the
// fake stands in for WebLLM, so the chain's first link answers.)
import { startChatServer } from '../../../e2e/support/chat-server.mjs';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

const testServer = await startChatServer();
const baseURL = testServer.url;
const apiKey = 'sk-your-key';
const printed: string[] = [];
const console = { log: (...values: unknown[]) => void printed.push(values.join(' ')) };
useFakeScript([]);

// #region readme
// Part of examples/docs/engines/06-server-model-and-chain.ts, where `baseURL` is your server's and `apiKey` your key.
import { createAgent, tool } from 'tabagent';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { z } from 'zod';

// Any AI SDK provider's model: OpenAI's, Anthropic's, or an OpenAI-compatible vLLM, Ollama or llama-server.
const server = createOpenAICompatible({ name: 'my-server', baseURL, apiKey })('qwen3-32b');
const agent = await createAgent({ model: server });
const info = await agent.ready; // at once: nothing to download
console.log(info.engine, info.host); // 'server' 'page'

const add = tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
const chat = await agent.newChat({ tools: [add] });
const reply = await chat.send('What is 2 + 3?'); // the server calls add; tabagent's loop validates and runs it
console.log(reply.text);

// One chain across engines: the first this device can run answers. (Listen before the load to hear every skip.)
const anywhere = await createAgent({});
anywhere.on('model-warning', (w) => {
  if (w.type === 'engine-skipped') console.log(`${w.modelId} skipped: ${w.error.name}`); // e.g. WebGPUUnavailableError
});
const answering = await anywhere.load('Qwen2.5-1.5B-Instruct-q4f16_1-MLC', {
  fallback: ['chrome-builtin', 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF', server], // WebGPU, else Chrome's model, a GGUF on the CPU, the server
});
console.log(answering.engine); // which engine answers
// #endregion readme

check(printed[0] === 'server page', JSON.stringify(printed));
check(reply.text === 'The tool said 5.', reply.text);
check(testServer.state.requests.length === 2, `the server was asked ${testServer.state.requests.length} times`);
check(printed.at(-1) === 'fake', JSON.stringify(printed));
await testServer.close();
