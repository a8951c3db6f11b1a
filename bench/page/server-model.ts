// A server model's hop, two ways side by side: through tabagent (an agent on
// the server model, chat.send with a managed tool: the loop, validation,
// the journal in memory) and the provider called directly (its doStream in
// a plain loop, the prompt kept by hand, the tool run inline). The server is
// the AI SDK's MockLanguageModelV4 answering at once, so what is left is each
// side's own cost per model call, not the network's. Samples alternate which
// goes first.
import type { LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { z } from 'zod';
import { createAgent, tool } from '../../src/index.js';

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
  const declared = [{ type: 'function' as const, name: 'echo', description: 'Echo a text', inputSchema: z.toJSONSchema(z.object({ text: z.string() })) as Record<string, unknown> }];
  const run = {
    async tabagent() {
      const chat = await agent.newChat({ tools: [echo], maxToolHops: hops });
      return (await chat.send('Say hello')).steps.length;
    },
    async direct() {
      const prompt: LanguageModelV4Prompt = [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }];
      for (let step = 1; ; step++) {
        const { stream } = await model.doStream({ prompt, tools: declared });
        const calls: Extract<LanguageModelV4StreamPart, { type: 'tool-call' }>[] = [];
        for await (const part of stream as unknown as AsyncIterable<LanguageModelV4StreamPart>) if (part.type === 'tool-call') calls.push(part);
        if (calls.length === 0) return step;
        prompt.push({ role: 'assistant', content: calls.map((c) => ({ type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input: JSON.parse(c.input) })) });
        prompt.push({ role: 'tool', content: calls.map((c) => ({ type: 'tool-result', toolCallId: c.toolCallId, toolName: c.toolName, output: { type: 'json', value: JSON.parse(c.input) } })) });
      }
    },
  };
  const times = { tabagent: [] as number[], direct: [] as number[] };
  for (let i = -WARMUP; i < samples; i++) {
    const sides = i % 2 === 0 ? (['tabagent', 'direct'] as const) : (['direct', 'tabagent'] as const);
    for (const side of sides) {
      const started = performance.now();
      const steps = await run[side]();
      const ms = performance.now() - started;
      if (steps !== hops + 1) throw new Error(`${side} made ${steps} steps, not ${hops + 1}`);
      if (i >= 0) times[side].push(ms / (hops + 1));
    }
  }
  agent.close();
  return times;
}

export const serverBench = { serverHops };
