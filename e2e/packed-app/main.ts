// An app as a user writes it against the published package. scripts/packed-apps.mjs
// installs the packed tarball beside it and builds it with Vite and with
// webpack, each with its default configuration; e2e/package.spec.ts runs both
// and type-checks this file against the packed declarations with skipLibCheck
// off. `?case=` picks what the app does:
// - (none) a managed tool round trip on the fake model;
// - fallback: a WebLLM model with a GGUF fallback, on whatever this browser has.
import { createAgent, isModelCached, tool, type Reply } from 'tabagent';
import { fakeModel, toolCallText } from 'tabagent/testing';
import { z } from 'zod';

const status = document.getElementById('status')!;
// For the test that then asks the WebLLM engine something (it loads only then).
(window as unknown as { isModelCached: typeof isModelCached }).isModelCached = isModelCached;

async function roundTrip(): Promise<string> {
  const fake = fakeModel([toolCallText('multiply', { a: 6, b: 7 }), 'It is 42.']);
  const agent = await createAgent({ model: fake, storage: false });
  const multiply = tool({ name: 'multiply', description: 'Multiply', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a * b });
  const chat = await agent.newChat({ tools: [multiply] });
  const reply: Reply = await chat.send('6 × 7?');
  return `${reply.text} (${fake.requests[1]!.last.split('\n')[1]})`;
}

async function fallback(): Promise<string> {
  const agent = await createAgent({ model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', fallback: 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF', storage: false });
  const info = await agent.ready;
  const chat = await agent.newChat({ generation: { maxTokens: 4 } });
  const reply = await chat.send('Hello');
  return `${info.engine} ${info.modelId} ${reply.steps.length} step`;
}

try {
  const which = new URLSearchParams(location.search).get('case');
  status.textContent = `ok: ${await (which === 'fallback' ? fallback() : roundTrip())}`;
} catch (error) {
  status.textContent = `error: ${(error as Error).name}: ${(error as Error).message}`;
}
