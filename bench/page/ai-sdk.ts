// The same multi-step tool loop three ways, side by side on one agent's
// model (one worker, the fake model's list script): the AI SDK's streamText
// running the loop through tabagent/ai-sdk's provider (languageModelOf); the
// provider alone, its doStream driven by a plain loop (where the time of a
// step goes: the provider, or the AI SDK's own step machinery); and
// tabagent's own loop (chat.sendStream). Samples rotate which goes first.
import type { LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { stepCountIs, streamText, tool as aiTool } from 'ai';
import { z } from 'zod';
import { createAgent, tool } from '../../src/index.js';
import { languageModelOf } from '../../src/ai-sdk/index.js';
import { fakeModel, toolCallText } from '../../src/testing/index.js';

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
  const declared = [{ type: 'function' as const, name: 'echo', description: 'Echo a text', inputSchema: z.toJSONSchema(z.object({ text: z.string() })) as Record<string, unknown> }];
  const run: Record<Side, () => Promise<number>> = {
    async sdk() {
      const result = streamText({ model, prompt: 'Say hello', tools: { echo: echoSdk }, stopWhen: stepCountIs(hops + 1) });
      for await (const _ of result.fullStream);
      return (await result.steps).length;
    },
    async provider() {
      // The AI SDK's prompt for each step, kept by hand: the call with its provider metadata, then its result.
      const prompt: LanguageModelV4Prompt = [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }];
      for (let step = 1; ; step++) {
        const { stream } = await model.doStream({ prompt, tools: declared });
        const calls: Extract<LanguageModelV4StreamPart, { type: 'tool-call' }>[] = [];
        for await (const part of stream as unknown as AsyncIterable<LanguageModelV4StreamPart>) if (part.type === 'tool-call') calls.push(part);
        if (calls.length === 0) return step;
        prompt.push({ role: 'assistant', content: calls.map((c) => ({ type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input: JSON.parse(c.input), providerOptions: c.providerMetadata })) });
        prompt.push({ role: 'tool', content: calls.map((c) => ({ type: 'tool-result', toolCallId: c.toolCallId, toolName: c.toolName, output: { type: 'json', value: JSON.parse(c.input) } })) });
      }
    },
    async own() {
      const chat = await agent.newChat({ tools: [echo], maxToolHops: hops });
      let steps = 0;
      for await (const part of chat.sendStream('Say hello')) if (part.type === 'final') steps = part.reply.steps.length;
      return steps;
    },
  };
  const times: Record<Side, number[]> = { sdk: [], provider: [], own: [] };
  const order: Side[] = [];
  for (let i = -WARMUP; i < samples; i++) {
    const first = ((i % SIDES.length) + SIDES.length) % SIDES.length;
    for (let k = 0; k < SIDES.length; k++) {
      const side = SIDES[(first + k) % SIDES.length]!;
      order.push(side);
      const started = performance.now();
      const steps = await run[side]();
      const ms = performance.now() - started;
      if (steps !== hops + 1) throw new Error(`${side} made ${steps} steps, not ${hops + 1}`);
      if (i >= 0) times[side].push(ms / (hops + 1));
    }
  }
  agent.close();
  // Each run's requests after its first: did the model find the conversation before in its KV cache?
  const reused: Record<Side, boolean[]> = { sdk: [], provider: [], own: [] };
  if (records) order.forEach((side, n) => reused[side].push(...fake.requests.slice(n * turns.length + 1, (n + 1) * turns.length).map((r) => r.reusedCache)));
  return { ...times, reused };
}

export const aiSdkBench = { aiSdkSteps };
