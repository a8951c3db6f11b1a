// docs/ai-sdk.md, "A provider for the AI SDK".
import { toolCallText } from 'tabagent/testing';
import { check, readmeRun, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript(
  [
    '<think>\nThe weather tool knows.\n</think>\n\n' + toolCallText('weather', { city: 'Paris' }),
    '<think>\n</think>\n\nSunny in Paris, 24 °C.',
    { text: '<think>\n</think>\n\nOnce upon a time, in a tab far away, a small model told a very long story.', tokenDelayMs: 5 },
    '<think>\n</think>\n\n{"city": "Oslo", "days": 2}',
  ],
  { modelId: 'Qwen3-1.7B-q4f16_1-MLC' },
);
const output = { textContent: '' };

// #region readme
// Part of examples/docs/ai-sdk/01-ai-sdk.ts, which defines `output` (an element of your page).
import { generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { createTabAgent } from 'tabagent/ai-sdk';
import { z } from 'zod';

const tabagent = createTabAgent({ onProgress: (p) => console.log(p.phase, p.loaded, p.total) });
const model = tabagent('Qwen3-1.7B-q4f16_1-MLC'); // or { gguf: url } on the CPU, or fakeModel(...) in tests
await model.ready(); // optional: the first call loads the model too

const weather = tool({
  description: 'Weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, forecast: 'sunny', celsius: 24 }),
});
const { text, steps } = await generateText({
  model,
  prompt: 'What is the weather in Paris?',
  tools: { weather },
  stopWhen: stepCountIs(3), // the AI SDK runs the loop and the tools
  prepareStep: ({ stepNumber }) => (stepNumber === 0 ? { toolChoice: { type: 'tool', toolName: 'weather' } } : {}), // held by the grammar
});
steps[1]!.usage.inputTokenDetails; // { noCacheTokens, cacheReadTokens }: step 2 read only what was new

const stop = new AbortController();
const story = streamText({ model, prompt: 'Tell me a long story', abortSignal: stop.signal, reasoning: 'none' });
for await (const delta of story.textStream) {
  output.textContent += delta;
  if (output.textContent.length > 20) stop.abort(); // generation stops in the worker
}

const { output: trip } = await generateText({
  model,
  prompt: 'Plan two days in Oslo',
  output: Output.object({ schema: z.object({ city: z.string(), days: z.number() }) }), // the reply is held to the schema
});
tabagent.close();
// #endregion readme

check(text === 'Sunny in Paris, 24 °C.', text);
check(steps.length === 2 && (steps[0]!.toolCalls[0]!.input as { city: string }).city === 'Paris', JSON.stringify(steps.map((s) => s.toolCalls)));
check(steps[0]!.reasoningText === 'The weather tool knows.', String(steps[0]!.reasoningText));
const [first, second] = readmeRun().fakes[0]!.requests;
check(second!.reusedCache && second!.promptTokens < first!.promptTokens, 'step 2 reuses the KV cache');
check(output.textContent.length > 20 && !output.textContent.includes('long story'), output.textContent);
check(readmeRun().fakes[0]!.requests[2]!.thinking === false, "reasoning: 'none' turns thinking off");
check(trip.city === 'Oslo' && trip.days === 2, JSON.stringify(trip));
