import { describe, expect, expectTypeOf, it } from 'vitest';
import { Validator, type Schema } from '@cfworker/json-schema';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { isInvalidObjectError, isInvalidOptionsError, type InvalidObjectError } from '../errors/index.js';
import type { JsonSchema } from '../shared/json.js';
import type { FinishReason } from '../shared/model.js';
import { partialJson } from './partial-json.js';
import { objectOutput } from './object-output.js';

/** The InvalidObjectError `read` rejects with. */
async function refusal(read: () => Promise<unknown>): Promise<InvalidObjectError> {
  try {
    await read();
  } catch (error) {
    if (isInvalidObjectError(error)) return error;
    throw error;
  }
  throw new Error('read did not throw');
}

const person = z.object({ name: z.string(), age: z.number().int(), email: z.string().email().optional() });

describe('objectOutput with a zod schema', () => {
  it('describes what the model writes, as tools do (input mode, no $schema)', async () => {
    const { jsonSchema } = objectOutput(z.object({ name: z.string(), n: z.number().default(1) }));
    expect(jsonSchema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, n: { type: 'number', default: 1 } },
      required: ['name'],
    });
  });

  it('reads a reply that fits, typed as the schema output', async () => {
    const value = await objectOutput(person).read('  {"name": "Ada", "age": 36}\n', 'stop');
    expectTypeOf(value).toEqualTypeOf<{ name: string; age: number; email?: string | undefined }>();
    expect(value).toEqual({ name: 'Ada', age: 36 });
  });

  it('applies defaults and transforms: what you get is the schema output', async () => {
    const value = await objectOutput(z.object({ n: z.number().default(1), tag: z.string().transform((s) => s.toUpperCase()) })).read('{"tag": "a"}', 'stop');
    expectTypeOf(value).toEqualTypeOf<{ n: number; tag: string }>();
    expect(value).toEqual({ n: 1, tag: 'A' });
  });

  it('takes zod mini schemas too', async () => {
    expect(await objectOutput(zm.object({ ok: zm.boolean() })).read('{"ok": true}', 'stop')).toEqual({ ok: true });
  });

  it('a reply that is not JSON: InvalidObjectError with the text, never repaired', async () => {
    const error = await refusal(() => objectOutput(person).read("{'name': 'Ada', 'age': 36}", 'stop'));
    expect(error).toMatchObject({ name: 'InvalidObjectError', code: 'INVALID_OBJECT', text: "{'name': 'Ada', 'age': 36}", finishReason: 'stop' });
    expect(error.issues).toEqual([{ path: '', message: expect.stringMatching(/^not JSON: /) }]);
  });

  it('JSON that breaks what a grammar cannot express (an email, a refine): the issues name the fields', async () => {
    const schema = z.object({ contact: z.object({ email: z.string().email() }), range: z.object({ from: z.number(), to: z.number() }).refine((r) => r.from <= r.to, 'from must not pass to') });
    const error = await refusal(() => objectOutput(schema).read('{"contact": {"email": "ada"}, "range": {"from": 3, "to": 1}}', 'stop'));
    expect(error.issues).toEqual([
      { path: 'contact.email', message: 'Invalid email address' },
      { path: 'range', message: 'from must not pass to' },
    ]);
    expect(error.message).toBe("The model's reply is not JSON that fits the schema: contact.email: Invalid email address; range: from must not pass to");
  });

  it("a reply cut off by the token limit: finishReason 'length', said in the message", async () => {
    const error = await refusal(() => objectOutput(person).read('{"name": "Ada", "ag', 'length'));
    expect(error).toMatchObject({ finishReason: 'length', text: '{"name": "Ada", "ag' });
    expect(error.message).toMatch(/cut off by the token limit/);
  });

  it('a schema JSON Schema cannot describe is refused up front', async () => {
    const error = (() => {
      try {
        objectOutput(z.object({ when: z.date() }));
      } catch (e) {
        return e;
      }
    })();
    expect(isInvalidOptionsError(error)).toBe(true);
    expect(error).toMatchObject({ option: 'schema' });
  });

  it('an async refine runs as the reply is read', async () => {
    const output = objectOutput(z.object({ a: z.string() }).refine(async ({ a }) => a === 'x', 'not x'));
    expect(await output.read('{"a": "x"}', 'stop')).toEqual({ a: 'x' });
    expect((await refusal(() => output.read('{"a": "y"}', 'stop'))).issues).toEqual([{ path: '', message: 'not x' }]);
  });
});

describe('objectOutput with a JSON Schema', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { email: { type: 'string', format: 'email' }, count: { type: 'integer', minimum: 1 } },
    required: ['email', 'count'],
    additionalProperties: false,
  };

  it('is used as given, and read as unknown', async () => {
    const output = objectOutput(schema);
    expect(output.jsonSchema).toBe(schema);
    const value = await output.read('{"email": "ada@example.com", "count": 2}', 'stop');
    expectTypeOf(value).toBeUnknown();
    expect(value).toEqual({ email: 'ada@example.com', count: 2 });
  });

  it.each<[string, string, Array<{ path: string; message: string }>]>([
    ['a format', '{"email": "ada", "count": 2}', [{ path: 'email', message: 'String does not match format "email".' }]],
    ['a range', '{"email": "a@b.co", "count": 0}', [{ path: 'count', message: '0 is less than 1.' }]],
    ['a missing key', '{"email": "a@b.co"}', [{ path: 'count', message: 'required' }]],
    ['an extra key', '{"email": "a@b.co", "count": 1, "x": 1}', [{ path: 'x', message: 'unexpected field' }]],
  ])('checked as JSON Schema, as a tool\'s arguments are: %s', async (_, text, issues) => {
    expect((await refusal(() => objectOutput(schema).read(text, 'stop'))).issues).toEqual(issues);
  });

  // JSON Schema's meaning, with a validator tabagent did not write as the oracle: zod's reading of a JSON Schema differed.
  it.each<[string, JsonSchema, string]>([
    ['an enum of objects and arrays', { enum: [{ a: 1 }, [1, 2]] }, '[1,2]'],
    ['a const object', { const: { a: 1 } }, '{"a":1}'],
    ['an integer past 2^53', { type: 'integer' }, '12345678901234567890'],
    ['a \\p{…} pattern', { type: 'string', pattern: '^\\p{Lu}$' }, '"É"'],
    ['if/then, with the if not met', { type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }, '{"c":1}'],
  ])('reads a value JSON Schema allows: %s', async (_, given, text) => {
    expect(new Validator(given as Schema, '2020-12').validate(JSON.parse(text)).valid).toBe(true);
    expect(await objectOutput(given).read(text, 'stop')).toEqual(JSON.parse(text));
  });

  it.each<[string, JsonSchema, string]>([
    ['minItems without items', { type: 'array', minItems: 1 }, '[]'],
    ['maxItems without items', { type: 'array', maxItems: 1 }, '[1,2]'],
    ['a key the second allOf part requires', { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { required: ['b'] }] }, '{"a":"x"}'],
    ['if/then, with the if met', { type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }, '{"a":1}'],
  ])('refuses a value JSON Schema refuses: %s', async (_, given, text) => {
    expect(new Validator(given as Schema, '2020-12').validate(JSON.parse(text)).valid).toBe(false);
    expect((await refusal(() => objectOutput(given).read(text, 'stop'))).issues.length).toBeGreaterThan(0);
  });

  it.each<[string, unknown]>([
    ['a number', 42],
    ['an array', [{ type: 'string' }]],
    ['null', null],
    ['a schema with a function in it', { type: 'object', properties: { a: { type: 'string', default: () => 'x' } } }],
  ])('refuses %s with InvalidOptionsError', async (_, schema) => {
    expect(() => objectOutput(schema as JsonSchema)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', option: 'schema' }));
  });
});

describe('partial objects as the reply streams', () => {
  const text = JSON.stringify(
    { name: 'Ada "the Countess"', age: 36, alive: false, spouse: null, works: [{ title: 'Notes', year: 1843 }, { title: 'Letters' }], extra: { a: [1, 2.5e3, true] } },
    null,
    2,
  );

  /** `next` keeps every key (recursively) and every array element of `previous`. */
  function grows(previous: unknown, next: unknown): boolean {
    if (Array.isArray(previous)) return Array.isArray(next) && next.length >= previous.length && previous.every((p, i) => grows(p, next[i]));
    if (typeof previous === 'object' && previous !== null) {
      if (typeof next !== 'object' || next === null || Array.isArray(next)) return false;
      return Object.entries(previous).every(([k, v]) => k in next && grows(v, (next as Record<string, unknown>)[k]));
    }
    return true;
  }

  it('nothing until something parses', async () => {
    expect(partialJson('')).toBeUndefined();
    expect(partialJson('  ')).toBeUndefined();
    expect(partialJson('{')).toEqual({});
  });

  it('every prefix gives a value that keeps all the keys of the one before, ending at the whole object', async () => {
    let previous: unknown = undefined;
    for (let i = 1; i <= text.length; i++) {
      const value = partialJson(text.slice(0, i));
      expect(value, text.slice(0, i)).toBeTypeOf('object');
      expect(grows(previous, value), `${JSON.stringify(previous)} → ${JSON.stringify(value)}`).toBe(true);
      previous = value;
    }
    expect(previous).toEqual(JSON.parse(text));
  });

  it('a key shows only once its value begins; a literal is finished, not read as a string', async () => {
    expect(partialJson('{"name": "Ada", "ag')).toEqual({ name: 'Ada' });
    expect(partialJson('{"name": "Ada", "age":')).toEqual({ name: 'Ada' });
    expect(partialJson('{"name": "Ada", "age": 3')).toEqual({ name: 'Ada', age: 3 });
    expect(partialJson('{"alive": tr')).toEqual({ alive: true });
    expect(partialJson('{"spouse": n')).toEqual({ spouse: null });
    expect(partialJson('{"works": [{"title": "No')).toEqual({ works: [{ title: 'No' }] });
  });

  it('partial values are not validated', async () => {
    expect(partialJson('{"name": 5')).toEqual({ name: 5 });
  });
});

// The signature the chat API builds on.
expectTypeOf(objectOutput(person).read).parameters.toEqualTypeOf<[string, FinishReason]>();
