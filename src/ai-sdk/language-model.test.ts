// The provider driven by the AI SDK's own code (generateText, streamText,
// Output.object, stopWhen), on the strict fake model in this thread: the
// real engine host, codec, grammar check and KV accounting, no worker. The
// same runs through the real worker and on wllama are in e2e/ai-sdk.spec.ts.
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateObject, generateText, jsonSchema, Output, readUIMessageStream, stepCountIs, streamObject, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isFakeGrammarError, isInvalidOptionsError, isModelError, isUnknownToolError } from '../errors/index.js';
import { localModel, inThreadStarter, localAgent } from '../test-support/local-chat.js';
import { fakeModel, type FakeModel } from '../testing/fake-model.js';
import { toolCallText, toolCallsText } from '../testing/calls.js';
import type { FakeModelOptions, FakeScript } from '../testing/types.js';
import { createTabAgentWith, languageModelOf } from './provider.js';
import { splitTokens } from '../protocol/token-estimate.js';
import { codecs } from '../protocol/codecs.js';
import type { ModelFamily } from '../shared/tool-protocol.js';

// The warnings are asserted on the results; the AI SDK need not also print them.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const createTabAgent = createTabAgentWith(inThreadStarter((options) => localModel(options.model as FakeModel)));

function fake(script: FakeScript, options: FakeModelOptions = {}) {
  const model = fakeModel(script, options);
  return { fake: model, model: createTabAgent()(model) };
}

const weather = (seen: unknown[] = []) =>
  tool({
    description: 'Weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      seen.push(city);
      return { city, forecast: 'sunny' };
    },
  });

describe('generateText through the provider', () => {
  it('runs a multi-step tool loop: the AI SDK runs the tool, the next step reads its result and reuses the KV cache', async () => {
    const seen: unknown[] = [];
    // Text before the call, as the model wrote it: written again from the parts it would not come out the same.
    const { fake: script, model } = fake(['Let me look. ' + toolCallText('get_weather', { city: 'Paris' }), 'Sunny in Paris.']);
    const result = await generateText({ model, system: 'You are brief.', prompt: 'Weather in Paris?', tools: { get_weather: weather(seen) }, stopWhen: stepCountIs(5) });
    expect(seen).toEqual(['Paris']);
    expect(result.text).toBe('Sunny in Paris.');
    expect(result.steps.map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
    const [first, second] = script.requests;
    expect(first!.prompt).toContain('"name": "get_weather"');
    // Step 2 read only the tool result: the model turn went back byte for byte.
    expect(second!.reusedCache).toBe(true);
    expect(second!.last).toContain('{"city":"Paris","forecast":"sunny"}');
    expect(second!.promptTokens).toBeLessThan(first!.promptTokens);
    expect(result.usage.inputTokens).toBe(first!.promptTokens + second!.promptTokens);
    script.assertComplete();
  });

  it('a call the model finished runs though the token limit cut the reply after it (as in tabagent\'s loop)', async () => {
    const seen: unknown[] = [];
    const call = toolCallText('get_weather', { city: 'Oslo' });
    const { model } = fake([call + ' and then some words the limit cuts off', 'Sunny.']);
    const result = await generateText({ model, prompt: 'Weather?', tools: { get_weather: weather(seen) }, toolChoice: 'required', maxOutputTokens: splitTokens(call).length + 2, stopWhen: stepCountIs(2), prepareStep: ({ stepNumber }) => (stepNumber ? { toolChoice: 'none' } : {}) });
    expect(result.steps[0]!.finishReason).toBe('tool-calls');
    expect(result.steps[0]!.rawFinishReason).toBe('length');
    expect(seen).toEqual(['Oslo']);
    expect(result.text).toBe('Sunny.');
  });

  it('enforces a named tool choice with the grammar: output that is not that call cannot be written', async () => {
    const { model } = fake(['I would rather chat.']);
    const error = await generateText({ model, prompt: 'Weather?', tools: { get_weather: weather() }, toolChoice: { type: 'tool', toolName: 'get_weather' }, maxRetries: 0 }).catch((e: unknown) => e);
    expect(isFakeGrammarError(error)).toBe(true);
  });

  it("'required' and a named tool each send the grammar that forces a call; 'none' one that forbids it", async () => {
    const call = toolCallText('get_weather', { city: 'Oslo' });
    const { fake: script, model } = fake([call, call, 'No call.']);
    const tools = { get_weather: tool({ description: 'Weather', inputSchema: z.object({ city: z.string() }) }) };
    const required = await generateText({ model, prompt: 'a', tools, toolChoice: 'required' });
    const named = await generateText({ model, prompt: 'b', tools, toolChoice: { type: 'tool', toolName: 'get_weather' } });
    const none = await generateText({ model, prompt: 'c', tools, toolChoice: 'none' });
    expect(required.toolCalls.map((c) => c.input)).toEqual([{ city: 'Oslo' }]);
    expect(named.toolCalls.map((c) => c.input)).toEqual([{ city: 'Oslo' }]);
    expect(none.text).toBe('No call.');
    const [r, n, o] = script.requests;
    expect(JSON.stringify(r!.responseFormat)).toContain('"at_least_one":true');
    expect(JSON.stringify(n!.responseFormat)).not.toContain('triggered_tags');
    expect(o!.responseFormat).toMatchObject({ type: 'grammar' });
  });

  it('a tool choice naming no tool of the call is UnknownToolError; unsupported settings are the spec\'s warnings', async () => {
    const { model } = fake(['Hello.']);
    const unknown = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], toolChoice: { type: 'tool', toolName: 'nope' } }).catch((e: unknown) => e);
    expect(isUnknownToolError(unknown)).toBe(true);
    const result = await generateText({ model, prompt: 'hi', topK: 3, presencePenalty: 0.5, frequencyPenalty: 0.5, maxOutputTokens: 20, temperature: 0 });
    expect(result.warnings?.map((w) => (w.type === 'unsupported' ? w.feature : w.type))).toEqual(['topK', 'presencePenalty', 'frequencyPenalty']);
  });

  it('a history without the model\'s own text (another model\'s, or the app\'s) is written in the family\'s format', async () => {
    const { fake: script, model } = fake(['Done.'], { modelId: 'Llama-3.2-1B-Instruct-q4f16_1-MLC' });
    await generateText({
      model,
      messages: [
        { role: 'user', content: 'Weather in Rome?' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Rome' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'json', value: { forecast: 'rain' } } }] },
      ],
      tools: { get_weather: tool({ description: 'Weather', inputSchema: z.object({ city: z.string() }) }) },
    });
    const assistant = script.requests[0]!.messages.find((m) => m.role === 'assistant');
    expect(assistant?.content).toBe(toolCallsText([{ name: 'get_weather', arguments: { city: 'Rome' } }], 'llama'));
    expect(script.requests[0]!.last).toContain('{"forecast":"rain"}');
  });

  it('results given out of their calls\' order, in one tool message or two, reach the model in the calls\' order (the ids pair them)', async () => {
    const { fake: script, model } = fake(['Done.', 'Done.']);
    const tools = { get_weather: tool({ description: 'Weather', inputSchema: z.object({ city: z.string() }) }) };
    const turn = { role: 'assistant' as const, content: [{ type: 'tool-call' as const, toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Oslo' } }, { type: 'tool-call' as const, toolCallId: 'c2', toolName: 'get_weather', input: { city: 'Rome' } }] };
    const result = (toolCallId: string, forecast: string) => ({ type: 'tool-result' as const, toolCallId, toolName: 'get_weather', output: { type: 'json' as const, value: { forecast } } });
    const user = { role: 'user' as const, content: 'Weather in Oslo and Rome?' };
    await generateText({ model, tools, messages: [user, turn, { role: 'tool', content: [result('c2', 'ROME-SUN'), result('c1', 'OSLO-RAIN')] }] });
    await generateText({ model, tools, messages: [user, turn, { role: 'tool', content: [result('c2', 'ROME-SUN')] }, { role: 'tool', content: [result('c1', 'OSLO-RAIN')] }] });
    for (const { prompt } of script.requests) {
      expect(prompt).toContain('OSLO-RAIN');
      expect(prompt.indexOf('OSLO-RAIN')).toBeLessThan(prompt.indexOf('ROME-SUN'));
    }
  });
});

describe('structured output through the provider', () => {
  const Trip = z.object({ city: z.string(), days: z.number() });

  it('Output.object without tools: the reply is constrained to the schema', async () => {
    const { fake: script, model } = fake(['{"city": "Oslo", "days": 2}']);
    const { output } = await generateText({ model, prompt: 'Plan', output: Output.object({ schema: Trip }) });
    expect(output).toEqual({ city: 'Oslo', days: 2 });
    expect(JSON.stringify(script.requests[0]!.responseFormat)).toContain('json_schema');
    const bad = fake(['{"town": "Oslo"}']);
    expect(isFakeGrammarError(await generateText({ model: bad.model, prompt: 'Plan', output: Output.object({ schema: Trip }), maxRetries: 0 }).catch((e: unknown) => e))).toBe(true);
  });

  it('Output.object with tools: the model calls tools, then gives the answer, held to the schema', async () => {
    const seen: unknown[] = [];
    const call = toolCallText('get_weather', { city: 'Oslo' });
    const { fake: script, model } = fake([call, toolCallText('json', { city: 'Oslo', days: 3 })]);
    const result = await generateText({ model, prompt: 'Plan', tools: { get_weather: weather(seen) }, output: Output.object({ schema: Trip }), stopWhen: stepCountIs(4) });
    expect(seen).toEqual(['Oslo']);
    expect(result.output).toEqual({ city: 'Oslo', days: 3 });
    expect(result.steps.map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
    // The step's turn went to the AI SDK with the model's own text, and came back with it.
    expect(result.steps[0]!.response.messages[0]).toMatchObject({ role: 'assistant', content: [{ type: 'tool-call', providerOptions: { tabagent: { raw: call } } }] });
    expect(script.requests[1]!.reusedCache).toBe(true);
    // The answer tool is offered beside the app's, and a call is required (the JSON is a call too).
    expect(script.requests[0]!.prompt).toContain('"name": "json"');
    expect(JSON.stringify(script.requests[0]!.responseFormat)).toContain('"at_least_one":true');
  });

  it('Output.object with tools, prose before the answer (no grammar): streamText reads the answer generateText reads; prose before a call still streams', async () => {
    const reply = 'Sure. ' + toolCallText('json', { city: 'Oslo', days: 3 });
    const tools = { get_weather: weather() };
    const generated = await generateText({ model: fake([reply], { grammar: false }).model, prompt: 'Plan', tools, output: Output.object({ schema: Trip }) });
    const streamed = streamText({ model: fake([reply], { grammar: false }).model, prompt: 'Plan', tools, output: Output.object({ schema: Trip }) });
    expect(await streamed.output).toEqual(generated.output);
    expect(generated.output).toEqual({ city: 'Oslo', days: 3 });
    const calling = streamText({ model: fake(['Let me look. ' + toolCallText('get_weather', { city: 'Oslo' })], { grammar: false }).model, prompt: 'Plan', tools, output: Output.object({ schema: Trip }) });
    const texts: string[] = [];
    for await (const part of calling.fullStream) if (part.type === 'text-delta') texts.push(part.text);
    expect(texts.join('')).toBe('Let me look.');
  });

  it('generateObject and streamObject: one schema-held value, streamed as it grows', async () => {
    const { fake: script, model } = fake(['{"city": "Rome", "days": 1}', { text: '{"city": "Bari", "days": 4}', tokenDelayMs: 2 }]);
    const { object } = await generateObject({ model, schema: Trip, prompt: 'Plan' });
    expect(object).toEqual({ city: 'Rome', days: 1 });
    const stream = streamObject({ model, schema: Trip, prompt: 'Again' });
    const partials: unknown[] = [];
    for await (const partial of stream.partialObjectStream) partials.push(partial);
    expect(await stream.object).toEqual({ city: 'Bari', days: 4 });
    expect(partials.length).toBeGreaterThan(1);
    expect(script.requests.every((r) => JSON.stringify(r.responseFormat).includes('json_schema'))).toBe(true);
  });

  it('a schema that is not an object is wrapped for the answer call and unwrapped', async () => {
    const { model } = fake([toolCallText('json', { value: ['a', 'b'] })]);
    const { output } = await generateText({ model, prompt: 'List', tools: { get_weather: weather() }, output: Output.object({ schema: jsonSchema<string[]>({ type: 'array', items: { type: 'string' } }) }) });
    expect(output).toEqual(['a', 'b']);
  });
});

describe('streamText through the provider', () => {
  it('streams text, then the call as tool-input parts as it is written, in the spec\'s order, across steps', async () => {
    const { fake: script, model } = fake(['Let me check. ' + toolCallText('get_weather', { city: 'Oslo' }), 'Sunny.']);
    const result = streamText({ model, prompt: 'Weather in Oslo?', tools: { get_weather: weather() }, stopWhen: stepCountIs(3) });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(await result.text).toBe('Sunny.');
    const firstStep = types.slice(types.indexOf('start-step'), types.indexOf('finish-step') + 1);
    // The text part stays open while the call is written: text may follow a call.
    expect(firstStep.filter((t, i) => t !== 'text-delta' && !(t === 'tool-input-delta' && firstStep[i - 1] === t))).toEqual(['start-step', 'text-start', 'tool-input-start', 'tool-input-delta', 'tool-input-end', 'text-end', 'tool-call', 'tool-result', 'finish-step']);
    expect((await result.steps).length).toBe(2);
    expect(script.requests[1]!.reusedCache).toBe(true);
  });

  it('streams reasoning first, then text, for a model that thinks', async () => {
    const { model } = fake(['<think>\nHmm.\n</think>\n\nHello!'], { modelId: 'Qwen3-0.6B-q4f16_1-MLC' });
    const result = streamText({ model, prompt: 'Hi' });
    const parts: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'reasoning-delta' || part.type === 'text-delta') parts.push(`${part.type}:${part.text}`);
    // Every reasoning delta before the first text delta.
    expect(parts.findLastIndex((p) => p.startsWith('reasoning-delta'))).toBeLessThan(parts.findIndex((p) => p.startsWith('text-delta')));
    expect(await result.reasoningText).toContain('Hmm.');
    expect(await result.text).toBe('Hello!');
  });

  it('an abort mid-stream stops the generation, and the next call works', async () => {
    const { fake: script, model } = fake([{ text: 'one two three four five six seven eight nine ten', tokenDelayMs: 20 }, 'Again.']);
    const stop = new AbortController();
    const result = streamText({ model, prompt: 'Count', abortSignal: stop.signal });
    let shown = '';
    let aborted = false;
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        shown += part.text;
        if (shown.includes('two')) stop.abort();
      }
      if (part.type === 'abort') aborted = true;
    }
    expect(aborted).toBe(true);
    expect(shown).not.toContain('ten');
    expect((await generateText({ model, prompt: 'Again' })).text).toBe('Again.');
    expect(script.requests).toHaveLength(2);
  });
});

describe('the AI SDK\'s contract: errors as parts, stop sequences', () => {
  it('a model error mid-stream arrives as an error part: onError runs, the text so far is kept, the stream ends', async () => {
    const { model } = fake([{ text: 'The first half of the answer', fault: 'model-error' }]);
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: 'Hi', onError: ({ error }) => void errors.push(error) });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(errors).toHaveLength(1);
    expect(isModelError(errors[0])).toBe(true);
    expect(types).toContain('error');
    expect(await result.text).toBe('The first half of the answer');
    expect(await result.finishReason).toBe('error');
  });

  it('streamText reads the failed stream as it reads one of the AI SDK\'s own mock models ending with an error part', async () => {
    const failure = new Error('boom');
    const oracle = new MockLanguageModelV4({
      doStream: async () => ({
        stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
          { type: 'stream-start', warnings: [] },
          { type: 'response-metadata', modelId: 'mock', timestamp: new Date(0) },
          { type: 'text-start', id: 'txt-0' },
          { type: 'text-delta', id: 'txt-0', delta: 'Partial' },
          { type: 'error', error: failure },
          { type: 'text-end', id: 'txt-0' },
          { type: 'finish', finishReason: { unified: 'error', raw: undefined }, usage: { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } } },
        ]),
      }),
    });
    const { model } = fake([{ text: 'Partial', fault: 'model-error' }]);
    const seen = async (m: typeof oracle | typeof model) => {
      const result = streamText({ model: m, prompt: 'Hi', onError: () => undefined });
      const types: string[] = [];
      for await (const part of result.fullStream) types.push(part.type);
      return { types, text: await result.text, finishReason: await result.finishReason };
    };
    expect(await seen(model)).toEqual(await seen(oracle));
  });

  it('stopSequences end the text before the stop sequence, never streaming its first half; the finish reason is stop', async () => {
    // ' END.' is two of the fake's tokens (' END', '.'): the first streams before the sequence is whole.
    const { fake: script, model } = fake(['Hello there END. More words after it', 'Again.']);
    const result = streamText({ model, prompt: 'Hi', stopSequences: [' END.'] });
    let streamed = '';
    for await (const part of result.fullStream) if (part.type === 'text-delta') streamed += part.text;
    expect(streamed).toBe('Hello there');
    expect(await result.text).toBe('Hello there');
    expect(await result.finishReason).toBe('stop');
    expect(await result.warnings).toEqual([]);
    expect(script.requests[0]!.stop).toEqual([' END.']);
    // What goes back as the model's turn is what it wrote up to the stop: the next step reuses its cache.
    const steps = await result.steps;
    expect(steps[0]!.content.find((c) => c.type === 'text')?.providerMetadata).toEqual({ tabagent: { raw: 'Hello there' } });
    const again = await generateText({ model, messages: [{ role: 'user', content: 'Hi' }, ...(await result.response).messages, { role: 'user', content: 'Again' }] });
    expect(again.text).toBe('Again.');
    expect(script.requests[1]!.reusedCache).toBe(true);
  });

  it('stopSequences in generateText: a stop sequence the model never writes changes nothing', async () => {
    const { model } = fake(['Short answer. Then more.', 'Nothing to stop.']);
    const stopped = await generateText({ model, prompt: 'Hi', stopSequences: ['nope', '. Then'] });
    expect(stopped.text).toBe('Short answer');
    expect(stopped.finishReason).toBe('stop');
    const whole = await generateText({ model, prompt: 'Hi', stopSequences: ['nope'] });
    expect(whole.text).toBe('Nothing to stop.');
  });

  it('an empty stop sequence is InvalidOptionsError (it would stop every reply before it starts)', async () => {
    const { model } = fake(['Hello.']);
    const error = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stopSequences: [''] }).catch((e: unknown) => e);
    expect(isInvalidOptionsError(error)).toBe(true);
  });
});

describe('tool inputs streamed as the model writes them', () => {
  const trip = (seen: unknown[] = []) =>
    tool({
      description: 'Plan a trip',
      // Strings and a list: what every family's format writes as the same input (Qwen3.5's XML values are text).
      inputSchema: z.object({ city: z.string(), note: z.string(), stops: z.array(z.string()) }),
      execute: async (input) => {
        seen.push(input);
        return 'planned';
      },
    });
  const input = { city: 'Rio de Janeiro', note: 'He said "go" twice', stops: ['Lapa', 'Urca'] };
  const provisional = { tabagent: { provisional: true } };

  /** The provider's own parts of one streamed step, and what streamText made of them. */
  async function streamed(family: ModelFamily, script: string, seen: unknown[]) {
    // Qwen3 thinks first: its grammar opens the reply with the think block.
    const lead = family === 'qwen3' ? '<think>\nPlanning.\n</think>\n\n' : '';
    const { model } = fake([lead + script, lead + 'Done.'], { family });
    const result = streamText({ model, prompt: 'Plan', tools: { plan_trip: trip(seen) }, stopWhen: stepCountIs(2), includeRawChunks: false });
    const parts: Array<Record<string, unknown> & { type: string }> = [];
    for await (const part of result.fullStream) parts.push(part as never);
    return parts.slice(0, parts.findIndex((p) => p.type === 'finish-step') + 1);
  }

  for (const family of Object.keys(codecs) as ModelFamily[]) {
    it(`${family}: start, deltas as it is written, end, then the call; the deltas join into the call's input`, async () => {
      const seen: unknown[] = [];
      const parts = await streamed(family, toolCallText('plan_trip', input, family), seen);
      const tools = parts.filter((p) => p.type.startsWith('tool-'));
      const deltas = tools.filter((p) => p.type === 'tool-input-delta');
      expect(deltas.length).toBeGreaterThanOrEqual(2);
      expect(tools.map((p) => p.type).filter((t, i, all) => t !== all[i - 1])).toEqual(['tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call', 'tool-result']);
      const [start, , end, call] = tools.filter((p, i, all) => p.type !== all[i - 1]?.type);
      expect(start).toMatchObject({ toolName: 'plan_trip', providerMetadata: provisional });
      expect(new Set(tools.map((p) => p.id ?? p.toolCallId))).toEqual(new Set([start!.id]));
      expect(end).toMatchObject({ providerMetadata: provisional });
      // Written as the model wrote it, before the call was known whole: each delta is marked so.
      expect(deltas.every((d) => (d.providerMetadata as typeof provisional | undefined)?.tabagent.provisional === true)).toBe(true);
      expect(deltas.map((d) => d.delta).join('')).toBe(JSON.stringify(input));
      expect(call).toMatchObject({ toolName: 'plan_trip', input });
      expect(call!.providerMetadata).not.toEqual(provisional);
      expect(seen).toEqual([input]);
    });
  }

  it("useChat's reading of the stream shows the call being written: input-streaming with a growing partial input, then the call's input and output", async () => {
    const { model } = fake([toolCallText('plan_trip', input), 'Done.']);
    const deltas: string[] = [];
    const planned = tool({ ...trip(), onInputDelta: ({ inputTextDelta }) => void deltas.push(inputTextDelta) });
    const result = streamText({ model, prompt: 'Plan', tools: { plan_trip: planned }, stopWhen: stepCountIs(2) });
    const states: Array<{ state: string; input: unknown }> = [];
    for await (const message of readUIMessageStream({ stream: result.toUIMessageStream() })) {
      const part = message.parts.find((p) => p.type === 'tool-plan_trip') as { state: string; input: unknown } | undefined;
      if (part) states.push({ state: part.state, input: structuredClone(part.input) });
    }
    const streaming = states.filter((s) => s.state === 'input-streaming');
    // The city shows while it is written, before the call is whole.
    expect(streaming.some((s) => typeof (s.input as { city?: unknown } | undefined)?.city === 'string' && (s.input as { city: string }).city.length < input.city.length)).toBe(true);
    expect(states.at(-1)).toEqual({ state: 'output-available', input });
    // The tool's own hook heard the same deltas.
    expect(deltas.join('')).toBe(JSON.stringify(input));
  });

  it('a call written with JSON that needed mending streams what was sure, then the rest once read', async () => {
    const seen: unknown[] = [];
    const script = "<tool_call>\n{\"name\": \"plan_trip\", \"arguments\": {\"city\": \"Rio\", 'note': 'x', \"stops\": [],}}\n</tool_call>";
    const { model } = fake([script, 'Done.'], { grammar: false });
    const result = streamText({ model, prompt: 'Plan', tools: { plan_trip: trip(seen) }, stopWhen: stepCountIs(2) });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'tool-input-delta') deltas.push(part.delta);
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(deltas.join('')).toBe(JSON.stringify({ city: 'Rio', note: 'x', stops: [] }));
    expect(seen).toEqual([{ city: 'Rio', note: 'x', stops: [] }]);
  });

  it('a call cut off by the token limit streams its input, is ended, and never runs: the model hears it was invalid', async () => {
    const seen: unknown[] = [];
    const call = toolCallText('plan_trip', input);
    const { model } = fake([call, 'Sorry.']);
    const result = streamText({ model, prompt: 'Plan', tools: { plan_trip: trip(seen) }, maxOutputTokens: splitTokens(call).length - 4, stopWhen: stepCountIs(2) });
    const parts: Array<{ type: string; [key: string]: unknown }> = [];
    for await (const part of result.fullStream) parts.push(part as never);
    const first = parts.slice(0, parts.findIndex((p) => p.type === 'finish-step'));
    const types = first.map((p) => p.type).filter((t) => t.startsWith('tool-'));
    expect(types.filter((t) => t === 'tool-input-delta').length).toBeGreaterThanOrEqual(2);
    expect(types.filter((t) => t !== 'tool-input-delta')).toEqual(['tool-input-start', 'tool-input-end', 'tool-call', 'tool-error']);
    expect(first.find((p) => p.type === 'tool-call')).toMatchObject({ invalid: true, toolName: 'plan_trip' });
    expect(seen).toEqual([]);
  });

  it('a call of a tool that does not exist streams, is ended, and never runs', async () => {
    const seen: unknown[] = [];
    const { model } = fake([toolCallText('launch_rocket', { city: 'Oslo', note: 'now', stops: [] }), 'Sorry.'], { grammar: false });
    const result = streamText({ model, prompt: 'Plan', tools: { plan_trip: trip(seen) }, stopWhen: stepCountIs(2) });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    const first = types.slice(0, types.indexOf('finish-step')).filter((t) => t.startsWith('tool-') && t !== 'tool-input-delta');
    expect(first).toEqual(['tool-input-start', 'tool-input-end', 'tool-call', 'tool-error']);
    expect(seen).toEqual([]);
  });

  it('a model error while a call is written ends its input before the error part: no call, nothing runs', async () => {
    const seen: unknown[] = [];
    const { model } = fake([{ text: '<tool_call>\n{"name": "plan_trip", "arguments": {"city": "Rio de', fault: 'model-error' }], { grammar: false });
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: 'Plan', tools: { plan_trip: trip(seen) }, onError: ({ error }) => void errors.push(error) });
    const types: string[] = [];
    for await (const part of result.fullStream) if (part.type !== 'tool-input-delta') types.push(part.type);
    expect(types.slice(types.indexOf('tool-input-start'), types.indexOf('error') + 1)).toEqual(['tool-input-start', 'tool-input-end', 'error']);
    expect(types).not.toContain('tool-call');
    expect(isModelError(errors[0])).toBe(true);
    expect(seen).toEqual([]);
  });

  it('the JSON answer of structured output is not shown as a call being written', async () => {
    const { model } = fake([toolCallText('json', { city: 'Oslo', days: 3 })]);
    const result = streamText({ model, prompt: 'Plan', tools: { plan_trip: trip() }, output: Output.object({ schema: z.object({ city: z.string(), days: z.number() }) }) });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types.filter((t) => t.startsWith('tool-'))).toEqual([]);
    expect(await result.output).toEqual({ city: 'Oslo', days: 3 });
  });
});

describe('languageModelOf(agent)', () => {
  it('runs on the agent\'s model, beside its chats', async () => {
    const { agent, fake: script } = await localAgent([toolCallText('get_weather', { city: 'Oslo' }), 'Sunny.']);
    const model = languageModelOf(agent);
    const result = await generateText({ model, prompt: 'Weather?', tools: { get_weather: weather() }, stopWhen: stepCountIs(3) });
    expect(result.text).toBe('Sunny.');
    expect(model.modelId).toBe('fake-model');
    expect(script.requests[1]!.reusedCache).toBe(true);
    agent.close();
  });
});
