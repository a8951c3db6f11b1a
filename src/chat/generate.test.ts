// Structured output and one-shot runs, through the real engine host and the
// strict fake (whose grammar check is the real xgrammar).
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { isFakeGrammarError, isInvalidObjectError, isInvalidOptionsError, isPendingToolCallsError } from '../errors/index.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import { toolCallText as call } from '../testing/calls.js';
import { localAgent, localChat } from '../test-support/local-chat.js';
import { rawTool, tool } from '../tools/define-tool.js';

const person = z.object({ name: z.string(), age: z.number().int(), tags: z.array(z.string()) });
const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });

describe('chat.generateObject', () => {
  it('returns the JSON the grammar let the model write, checked and typed; prompt and answer join the chat', async () => {
    const json = '{"name": "Ada", "age": 36, "tags": ["math"]}';
    const { chat, fake } = await localChat([json, 'She was 36.'], { tools: [add] });
    const reply = await chat.generateObject({ schema: person, prompt: 'Who wrote the first program?' });
    expectTypeOf(reply.object).toEqualTypeOf<{ name: string; age: number; tags: string[] }>();
    expect(reply.object).toEqual({ name: 'Ada', age: 36, tags: ['math'] });
    expect(reply.text).toBe(json);
    // The tools stay declared, so the prompt's prefix (and the KV cache) is the chat's.
    expect(fake.requests[0]!.messages[0]!.content).toContain('"add"');
    expect(JSON.stringify(fake.requests[0]!.responseFormat)).toContain('"json_schema"');
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect((await chat.send('How old?')).text).toBe('She was 36.');
    expect(fake.requests[1]!.reusedCache).toBe(true);
  });

  it('a model cannot write anything but JSON that fits: the strict fake refuses the rest', async () => {
    const { chat } = await localChat(['{"name": "Ada", "age": "old", "tags": []}']);
    expect(isFakeGrammarError(await chat.generateObject({ schema: person, prompt: 'x' }).catch((e) => e))).toBe(true);
  });

  it('a reply that fits the grammar but not the schema rejects with InvalidObjectError, carrying the text', async () => {
    const even = z.object({ n: z.number().refine((n) => n % 2 === 0, 'must be even') });
    const { chat } = await localChat(['{"n": 3}']);
    const error = await chat.generateObject({ schema: even, prompt: 'an even number' }).catch((e) => e);
    expect(isInvalidObjectError(error)).toBe(true);
    expect(error).toMatchObject({ text: '{"n": 3}', finishReason: 'stop', issues: [{ path: 'n', message: 'must be even' }] });
    // What the model wrote stays in the chat, as any answer does.
    expect(chat.messages.at(-1)).toMatchObject({ role: 'assistant', text: '{"n": 3}' });
  });

  it('a reply cut off by the token limit is never guessed at', async () => {
    const { chat } = await localChat(['{"name": "Ada", "age": 36, "tags": ["math", "poetry", "engines"]}']);
    const error = await chat.generateObject({ schema: person, prompt: 'x', generation: { maxTokens: 8 } }).catch((e) => e);
    expect(isInvalidObjectError(error) && error.finishReason).toBe('length');
  });

  it('takes a JSON Schema too, and a thinking model thinks first', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const { chat } = await localChat(['<think>Norway’s capital.</think>\n\n{"city": "Oslo"}'], {}, { modelId: 'Qwen3-0.6B-q4f16_1-MLC' });
    const reply = await chat.generateObject({ schema, prompt: 'Capital of Norway?' });
    expect(reply.object).toEqual({ city: 'Oslo' });
    expect(reply.reasoning).toBe('Norway’s capital.');
  });

  it('refuses what is not a schema, and waits for pending calls like send', async () => {
    const ask = rawTool({ name: 'ask', description: '', parameters: { type: 'object', properties: {} } });
    const { chat } = await localChat([call('ask')], { tools: [ask] });
    expect(isInvalidOptionsError(await chat.generateObject({ schema: 'person' as never, prompt: 'x' }).catch((e) => e))).toBe(true);
    await chat.send('go');
    expect(isPendingToolCallsError(await chat.generateObject({ schema: person, prompt: 'x' }).catch((e) => e))).toBe(true);
  });
});

describe('generateObjectStream', () => {
  it('yields the object as it grows, then result holds the checked one', async () => {
    const json = '{"name": "Ada Lovelace", "age": 36, "tags": ["math", "poetry"]}';
    // The reader loaded already (as after a first stream): how many partials
    // come must not depend on whether a lazy import beats a 60 ms stream.
    await import('../tools/partial-json.js');
    const { chat } = await localChat([{ text: json, tokenDelayMs: 1 }]);
    const stream = chat.generateObjectStream({ schema: person, prompt: 'x' });
    const seen: unknown[] = [];
    for await (const partial of stream) seen.push(partial);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.at(-1)).toEqual(JSON.parse(json));
    // Keys only ever appear, never vanish, as the text grows.
    for (let i = 1; i < seen.length; i++) {
      for (const key of Object.keys(seen[i - 1] as object)) expect(Object.keys(seen[i] as object)).toContain(key);
    }
    expect((await stream.result).object).toEqual(JSON.parse(json));
  });

  it('throws InvalidObjectError from the iterator when the finished reply does not fit', async () => {
    const { chat } = await localChat(['{"n": 3}']);
    const stream = chat.generateObjectStream({ schema: z.object({ n: z.number().refine((n) => n < 2, 'too big') }), prompt: 'x' });
    const read = async () => {
      for await (const _ of stream);
    };
    expect(isInvalidObjectError(await read().catch((e) => e))).toBe(true);
  });
});

describe('agent.generate and agent.generateObject (nothing stored)', () => {
  it('runs the tool loop once on a conversation of its own', async () => {
    const store = new MemoryChatStore();
    const { agent, fake } = await localAgent([call('add', { a: 2, b: 3 }), 'It is 5.'], store);
    const run = vi.fn(({ a, b }: { a: number; b: number }) => a + b);
    const sum = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run });
    const reply = await agent.generate({
      system: 'You add.',
      tools: [sum],
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello! What shall I add?' },
        { role: 'user', content: '2 + 3?' },
      ],
    });
    expect(reply.text).toBe('It is 5.');
    expect(run).toHaveBeenCalledOnce();
    expect(reply.steps).toHaveLength(2);
    expect(reply.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    expect(fake.requests[0]!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(await agent.listChats()).toEqual([]);
  });

  it('generateObject from a prompt; bad conversations are refused', async () => {
    const { agent } = await localAgent(['{"name": "Grace", "age": 85, "tags": []}']);
    const reply = await agent.generateObject({ schema: person, prompt: 'Who found the first bug?', system: 'Answer as JSON.' });
    expect(reply.object.name).toBe('Grace');
    for (const bad of [{}, { messages: [] }, { messages: [{ role: 'assistant', content: 'hi' }] }, { prompt: 'a', messages: [{ role: 'user', content: 'b' }] }, { prompt: '  ' }]) {
      expect(isInvalidOptionsError(await agent.generate(bad as never).catch((e) => e))).toBe(true);
    }
  });

  it('streams an object without a stored chat', async () => {
    const { agent } = await localAgent(['{"name": "Grace", "age": 85, "tags": ["navy"]}']);
    const stream = await agent.generateObjectStream({ schema: person, prompt: 'x' });
    const seen: unknown[] = [];
    for await (const partial of stream) seen.push(partial);
    expect(seen.at(-1)).toEqual({ name: 'Grace', age: 85, tags: ['navy'] });
  });
});
