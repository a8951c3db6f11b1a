// Structured output through the engine host, with the strict fake model: the
// request is constrained to the schema's JSON, so a script a constrained
// model could not write fails at once, and no calls are read from the reply.
import { describe, expect, it } from 'vitest';
import { isFakeGrammarError } from '../errors/index.js';
import type { JsonSchema } from '../shared/json.js';
import type { ModelRequest } from '../shared/model.js';
import { buildOutputConstraint } from '../protocol/grammar.js';
import { localModel } from '../test-support/local-chat.js';
import { toolCallText } from '../testing/calls.js';
import { fakeModel } from '../testing/fake-model.js';

const person: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer' } },
  required: ['name', 'age'],
  additionalProperties: false,
};

const weather = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } };

const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: 'user', content: 'Who is Ada? As JSON.' }],
  tools: [weather],
  toolChoice: 'auto',
  output: { schema: person },
  ...extra,
});

describe('structured output in the engine host', () => {
  it('constrains the reply to the schema and reads no calls', async () => {
    const fake = fakeModel(['{"name": "Ada", "age": 36}']);
    const response = await (await localModel(fake)).generate(request());
    expect(response).toMatchObject({ text: '{"name": "Ada", "age": 36}', calls: [], finishReason: 'stop' });
    expect(fake.requests[0]!.responseFormat).toEqual(buildOutputConstraint(person, 'none'));
    // The tools stay declared, so the prompt prefix is the chat's usual one.
    expect(fake.requests[0]!.messages[0]!.content).toContain('get_weather');
  });

  it.each([
    ['not JSON', 'Ada is 36.'],
    ['a missing required key', '{"name": "Ada"}'],
    ['a wrong type', '{"name": "Ada", "age": "36"}'],
    ['a tool call', toolCallText('get_weather', { location: 'Oslo' })],
    ['whitespace before the JSON', '\n{"name": "Ada", "age": 36}'],
  ])('a script with %s fails with FakeGrammarError', async (_, output) => {
    const error = await (await localModel(fakeModel([output]))).generate(request()).then(() => null, (e: unknown) => e);
    expect(isFakeGrammarError(error), String(error)).toBe(true);
  });

  it('a reasoning model thinks first; the reply text is the JSON and the thinking its reasoning', async () => {
    const fake = fakeModel(['<think>\nAda Lovelace died at 36.\n</think>\n\n{"name": "Ada", "age": 36}'], { modelId: 'Qwen3-0.6B-q4f16_1-MLC' });
    const response = await (await localModel(fake)).generate(request());
    expect(response).toMatchObject({ text: '{"name": "Ada", "age": 36}', reasoning: 'Ada Lovelace died at 36.', calls: [] });
    expect(fake.requests[0]!.responseFormat).toEqual(buildOutputConstraint(person, 'think'));
  });

  it('a reasoning model must still write JSON after its think block', async () => {
    const fake = fakeModel(['<think>hm</think>\n\nAda, 36.'], { modelId: 'Qwen3-0.6B-q4f16_1-MLC' });
    const error = await (await localModel(fake)).generate(request()).then(() => null, (e: unknown) => e);
    expect(isFakeGrammarError(error)).toBe(true);
  });

  it('without a grammar, anything goes through as text, still with no calls read', async () => {
    const output = toolCallText('get_weather', { location: 'Oslo' });
    const response = await (await localModel(fakeModel([output]))).generate(request({ grammar: false }));
    expect(response.calls).toEqual([]);
    expect(response.text).toBe(output);
  });
});
