// What the AI SDK and server-model benches share: a provider's doStream driven
// by a plain loop (the prompt kept by hand, the echo tool run inline), and
// sides of one tool loop timed in rotation.
import type { LanguageModelV4, LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { z } from 'zod';

/** The echo tool, as a provider call declares it. */
export const ECHO_DECLARED = [{ type: 'function' as const, name: 'echo', description: 'Echo a text', inputSchema: z.toJSONSchema(z.object({ text: z.string() })) as Record<string, unknown> }];

/** Steps of `model` on one prompt until it answers without a call; each call's result is its own input, as the AI SDK writes it. */
export async function providerLoop(model: Pick<LanguageModelV4, 'doStream'>): Promise<number> {
  const prompt: LanguageModelV4Prompt = [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }];
  for (let step = 1; ; step++) {
    const { stream } = await model.doStream({ prompt, tools: ECHO_DECLARED });
    const calls: Extract<LanguageModelV4StreamPart, { type: 'tool-call' }>[] = [];
    for await (const part of stream as unknown as AsyncIterable<LanguageModelV4StreamPart>) if (part.type === 'tool-call') calls.push(part);
    if (calls.length === 0) return step;
    // The call with its provider metadata, as the AI SDK sends it back.
    prompt.push({ role: 'assistant', content: calls.map((c) => ({ type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input: JSON.parse(c.input), providerOptions: c.providerMetadata })) });
    prompt.push({ role: 'tool', content: calls.map((c) => ({ type: 'tool-result', toolCallId: c.toolCallId, toolName: c.toolName, output: { type: 'json', value: JSON.parse(c.input) } })) });
  }
}

/**
 * `samples` runs of each side after `warmup` more, which side goes first
 * rotating; each run must make `steps` model calls. Each run's time per model
 * call, by side, and the order the runs were made in.
 */
export async function timeSides<S extends string>(sides: readonly S[], run: Record<S, () => Promise<number>>, samples: number, steps: number, warmup: number) {
  const times = Object.fromEntries(sides.map((side) => [side, [] as number[]])) as Record<S, number[]>;
  const order: S[] = [];
  for (let i = -warmup; i < samples; i++) {
    const first = ((i % sides.length) + sides.length) % sides.length;
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(first + k) % sides.length]!;
      order.push(side);
      const started = performance.now();
      const made = await run[side]();
      const ms = performance.now() - started;
      if (made !== steps) throw new Error(`${side} made ${made} steps, not ${steps}`);
      if (i >= 0) times[side].push(ms / steps);
    }
  }
  return { times, order };
}
