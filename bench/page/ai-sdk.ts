// The same multi-step tool loop three ways, side by side on one agent's
// model (one worker, the fake model's list script): the AI SDK's streamText
// running the loop through tabagent/ai-sdk's provider (languageModelOf); the
// provider alone, its doStream driven by a plain loop (where the time of a
// step goes: the provider, or the AI SDK's own step machinery); and
// tabagent's own loop (chat.sendStream). Samples rotate which goes first.
import { stepCountIs, streamText, tool as aiTool } from 'ai';
import { z } from 'zod';
import { createAgent, tool } from '../../src/index.js';
import { languageModelOf } from '../../src/ai-sdk/index.js';
import { fakeModel, toolCallText } from '../../src/testing/index.js';
import { providerLoop, timeSides } from './side-by-side.js';

const CALL = toolCallText('echo', { text: 'hello world' });
const FINAL = 'Done: the tool said hello world.';
const WARMUP = 3;
const SIDES = ['sdk', 'provider', 'own'] as const;
type Side = (typeof SIDES)[number];

/**
 * `samples` runs of `hops` tool steps and a last answer on each side. Returns
 * each run's time per model call (from the call to the last part), and, with
 * the fake's records on (`records`), which requests after each run's first
 * reused the KV cache.
 */
async function aiSdkSteps(samples: number, hops: number, records = false) {
  const turns = [...Array<string>(hops).fill(CALL), FINAL];
  const runs = (samples + WARMUP) * SIDES.length;
  const fake = fakeModel(Array.from({ length: runs }, () => turns).flat(), { recordRequests: records });
  const agent = await createAgent({ model: fake, storage: false });
  const model = languageModelOf(agent);
  const echo = tool({ name: 'echo', description: 'Echo a text', input: z.object({ text: z.string() }), run: ({ text }) => ({ text }) });
  const echoSdk = aiTool({ description: 'Echo a text', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => ({ text }) });
  const run: Record<Side, () => Promise<number>> = {
    async sdk() {
      const result = streamText({ model, prompt: 'Say hello', tools: { echo: echoSdk }, stopWhen: stepCountIs(hops + 1) });
      for await (const _ of result.fullStream);
      return (await result.steps).length;
    },
    provider: () => providerLoop(model),
    async own() {
      const chat = await agent.newChat({ tools: [echo], maxToolHops: hops });
      let steps = 0;
      for await (const part of chat.sendStream('Say hello')) if (part.type === 'final') steps = part.reply.steps.length;
      return steps;
    },
  };
  const { times, order } = await timeSides(SIDES, run, samples, hops + 1, WARMUP);
  agent.close();
  // Each run's requests after its first: did the model find the conversation before in its KV cache?
  const reused: Record<Side, boolean[]> = { sdk: [], provider: [], own: [] };
  if (records) order.forEach((side, n) => reused[side].push(...fake.requests.slice(n * turns.length + 1, (n + 1) * turns.length).map((r) => r.reusedCache)));
  return { ...times, reused };
}

export const aiSdkBench = { aiSdkSteps };
