// A server model's hop, two ways side by side: through tabagent (an agent on
// the server model, chat.send with a managed tool: the loop, validation,
// the journal in memory) and the provider called directly (its doStream in
// a plain loop, the prompt kept by hand, the tool run inline). The server is
// the AI SDK's MockLanguageModelV4 answering at once, so what is left is each
// side's own cost per model call, not the network's. Samples alternate which
// goes first.
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { z } from 'zod';
import { createAgent, tool } from '../../src/index.js';
import { providerLoop, timeSides } from './side-by-side.js';

const WARMUP = 3;
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };

/** A server that calls echo until the prompt holds `hops` results, then answers. */
function server(hops: number): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const results = prompt.filter((m) => m.role === 'tool').length;
      const parts: LanguageModelV4StreamPart[] =
        results < hops
          ? [{ type: 'tool-call', toolCallId: `c${results}`, toolName: 'echo', input: '{"text":"hello world"}' }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage }]
          : [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Done: the tool said hello world.' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage }];
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

/** `samples` runs of `hops` tool steps and an answer on each side; each run's time per model call. */
async function serverHops(samples: number, hops: number) {
  const model = server(hops);
  const agent = await createAgent({ model, storage: false });
  const echo = tool({ name: 'echo', description: 'Echo a text', input: z.object({ text: z.string() }), run: ({ text }) => ({ text }) });
  const run = {
    async tabagent() {
      const chat = await agent.newChat({ tools: [echo], maxToolHops: hops });
      return (await chat.send('Say hello')).steps.length;
    },
    direct: () => providerLoop(model),
  };
  const { times } = await timeSides(['tabagent', 'direct'] as const, run, samples, hops + 1, WARMUP);
  agent.close();
  return times;
}

export const serverBench = { serverHops };
