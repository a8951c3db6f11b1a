// An app as a user writes it against the published package: a managed tool
// round trip on the fake model. scripts/packed-apps.mjs installs the packed
// tarball beside it and builds it with Vite and with webpack, each with its
// default configuration; e2e/package.spec.ts runs both and type-checks this
// file against the packed declarations with skipLibCheck off.
import { createAgent, isModelCached, tool, type Reply } from 'tabagent';
import { fakeModel, toolCallText } from 'tabagent/testing';
import { z } from 'zod';

const status = document.getElementById('status')!;
// For the test that then asks the WebLLM engine something (it loads only then).
(window as unknown as { isModelCached: typeof isModelCached }).isModelCached = isModelCached;
try {
  const fake = fakeModel([toolCallText('multiply', { a: 6, b: 7 }), 'It is 42.']);
  const agent = await createAgent({ model: fake, storage: false });
  const multiply = tool({ name: 'multiply', description: 'Multiply', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a * b });
  const chat = await agent.newChat({ tools: [multiply] });
  const reply: Reply = await chat.send('6 × 7?');
  status.textContent = `ok: ${reply.text} (${fake.requests[1]!.last.split('\n')[1]})`;
} catch (error) {
  status.textContent = `error: ${(error as Error).name}: ${(error as Error).message}`;
}
