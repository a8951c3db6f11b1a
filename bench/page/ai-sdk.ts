// The same multi-step tool loop two ways, side by side on one agent's model
// (one worker, the fake model's list script): the AI SDK's streamText
// running the loop through tabagent/ai-sdk's provider (languageModelOf), and
// tabagent's own loop (chat.sendStream). Each sample of one is followed by
// one of the other, which goes first alternating.
import { stepCountIs, streamText, tool as aiTool } from 'ai';
import { z } from 'zod';
import { createAgent, tool } from '../../src/index.js';
import { languageModelOf } from '../../src/ai-sdk/index.js';
import { fakeModel, toolCallText } from '../../src/testing/index.js';

const CALL = toolCallText('echo', { text: 'hello world' });
const FINAL = 'Done: the tool said hello world.';
const WARMUP = 3;

/**
 * `samples` runs of `hops` tool steps and a last answer on each side. Returns
 * each run's time per model call (from the call to the last part), and, with
 * the fake's records on (`records`), which requests after each run's first
 * reused the KV cache.
 */
async function aiSdkSteps(samples: number, hops: number, records = false) {
  const turns = [...Array<string>(hops).fill(CALL), FINAL];
  const runs = (samples + WARMUP) * 2;
  const fake = fakeModel(Array.from({ length: runs }, () => turns).flat(), { recordRequests: records });
  const agent = await createAgent({ model: fake, storage: false });
  const model = languageModelOf(agent);
  const echo = tool({ name: 'echo', description: 'Echo a text', input: z.object({ text: z.string() }), run: ({ text }) => ({ text }) });
  const echoSdk = aiTool({ description: 'Echo a text', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => ({ text }) });
  const viaSdk = async () => {
    const started = performance.now();
    const result = streamText({ model, prompt: 'Say hello', tools: { echo: echoSdk }, stopWhen: stepCountIs(hops + 1) });
    for await (const _ of result.fullStream);
    if ((await result.steps).length !== hops + 1) throw new Error('the AI SDK made another number of steps');
    return performance.now() - started;
  };
  const viaTabagent = async () => {
    const chat = await agent.newChat({ tools: [echo], maxToolHops: hops });
    const started = performance.now();
    let final;
    for await (const part of chat.sendStream('Say hello')) if (part.type === 'final') final = part.reply;
    if (final?.steps.length !== hops + 1) throw new Error('tabagent made another number of steps');
    return performance.now() - started;
  };
  const sdk: number[] = [];
  const own: number[] = [];
  for (let i = -WARMUP; i < samples; i++) {
    const order = i % 2 === 0 ? [viaSdk, viaTabagent] : [viaTabagent, viaSdk];
    const times = new Map<unknown, number>();
    for (const run of order) times.set(run, await run());
    if (i < 0) continue;
    sdk.push(times.get(viaSdk)! / (hops + 1));
    own.push(times.get(viaTabagent)! / (hops + 1));
  }
  agent.close();
  // Each run's requests after its first: did the model find the conversation before in its KV cache?
  const reused = { sdk: [] as boolean[], own: [] as boolean[] };
  if (records) {
    for (let run = 0; run < runs; run++) {
      const requests = fake.requests.slice(run * turns.length + 1, (run + 1) * turns.length);
      const i = Math.floor(run / 2) - WARMUP;
      const sdkFirst = i % 2 === 0;
      (run % 2 === 0 === sdkFirst ? reused.sdk : reused.own).push(...requests.map((r) => r.reusedCache));
    }
  }
  return { sdk, own, reused };
}

export const aiSdkBench = { aiSdkSteps };
