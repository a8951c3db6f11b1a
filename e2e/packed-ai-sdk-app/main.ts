// An AI SDK app as a user writes it against the published package: the AI
// SDK's own generateText runs a tool loop through tabagent/ai-sdk on the fake
// model. scripts/packed-apps.mjs installs the packed tarball beside it with
// `ai` (the entry's peer) and builds it with Vite; e2e/package.spec.ts runs
// it and type-checks this file against the packed declarations with
// skipLibCheck off.
import { generateText, stepCountIs, tool } from 'ai';
import { createTabAgent } from 'tabagent/ai-sdk';
import { fakeModel, toolCallText } from 'tabagent/testing';
import { z } from 'zod';

const status = document.getElementById('status')!;
try {
  const fake = fakeModel([toolCallText('multiply', { a: 6, b: 7 }), 'It is 42.']);
  const tabagent = createTabAgent();
  const multiply = tool({ description: 'Multiply', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => a * b });
  const { text, steps } = await generateText({ model: tabagent(fake), prompt: '6 × 7?', tools: { multiply }, stopWhen: stepCountIs(3) });
  status.textContent = `ok: ${text} (${steps.length} steps, ${fake.requests[1]!.last.split('\n')[1]}, cache ${fake.requests[1]!.reusedCache ? 'reused' : 'not reused'})`;
} catch (error) {
  status.textContent = `error: ${(error as Error).name}: ${(error as Error).message}`;
}
