import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { isInvalidObjectError, isInvalidOptionsError, type InvalidObjectError } from '../errors/index.js';
import type { JsonSchema } from '../shared/json.js';
import type { FinishReason } from '../shared/model.js';
import { partialJson } from './partial-json.js';
import { objectOutput } from './object-output.js';

/** The InvalidObjectError `read` throws. */
function refusal(read: () => unknown): InvalidObjectError {
  try {
    read();
  } catch (error) {
    if (isInvalidObjectError(error)) return error;
    throw error;
  }
  throw new Error('read did not throw');
}

const person = z.object({ name: z.string(), age: z.number().int(), email: z.string().email().optional() });

describe('objectOutput with a zod schema', () => {
  it('describes what the model writes, as tools do (input mode, no $schema)', () => {
    const { jsonSchema } = objectOutput(z.object({ name: z.string(), n: z.number().default(1) }));
    expect(jsonSchema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, n: { type: 'number', default: 1 } },
      required: ['name'],
    });
  });

  it('reads a reply that fits, typed as the schema output', () => {
    const value = objectOutput(person).read('  {"name": "Ada", "age": 36}\n', 'stop');
    expectTypeOf(value).toEqualTypeOf<{ name: string; age: number; email?: string | undefined }>();
    expect(value).toEqual({ name: 'Ada', age: 36 });
  });

  it('applies defaults and transforms: what you get is the schema output', () => {
    const value = objectOutput(z.object({ n: z.number().default(1), tag: z.string().transform((s) => s.toUpperCase()) })).read('{"tag": "a"}', 'stop');
    expectTypeOf(value).toEqualTypeOf<{ n: number; tag: string }>();
    expect(value).toEqual({ n: 1, tag: 'A' });
  });

  it('takes zod mini schemas too', () => {
    expect(objectOutput(zm.object({ ok: zm.boolean() })).read('{"ok": true}', 'stop')).toEqual({ ok: true });
  });

  it('a reply that is not JSON: InvalidObjectError with the text, never repaired', () => {
    const error = refusal(() => objectOutput(person).read("{'name': 'Ada', 'age': 36}", 'stop'));
    expect(error).toMatchObject({ name: 'InvalidObjectError', code: 'INVALID_OBJECT', text: "{'name': 'Ada', 'age': 36}", finishReason: 'stop' });
    expect(error.issues).toEqual([{ path: '', message: expect.stringMatching(/^not JSON: /) }]);
  });

  it('JSON that breaks what a grammar cannot express (an email, a refine): the issues name the fields', () => {
    const schema = z.object({ contact: z.object({ email: z.string().email() }), range: z.object({ from: z.number(), to: z.number() }).refine((r) => r.from <= r.to, 'from must not pass to') });
    const error = refusal(() => objectOutput(schema).read('{"contact": {"email": "ada"}, "range": {"from": 3, "to": 1}}', 'stop'));
    expect(error.issues).toEqual([
      { path: 'contact.email', message: 'Invalid email address' },
      { path: 'range', message: 'from must not pass to' },
    ]);
    expect(error.message).toBe("The model's reply is not JSON that fits the schema: contact.email: Invalid email address; range: from must not pass to");
  });

  it("a reply cut off by the token limit: finishReason 'length', said in the message", () => {
    const error = refusal(() => objectOutput(person).read('{"name": "Ada", "ag', 'length'));
    expect(error).toMatchObject({ finishReason: 'length', text: '{"name": "Ada", "ag' });
    expect(error.message).toMatch(/cut off by the token limit/);
  });

  it('a schema JSON Schema cannot describe is refused up front', () => {
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

  it('an async refine cannot run as the reply is read: InvalidOptionsError', () => {
    const output = objectOutput(z.object({ a: z.string() }).refine(async () => true));
    expect(() => output.read('{"a": "x"}', 'stop')).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', option: 'schema' }));
  });
});

describe('objectOutput with a JSON Schema', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { email: { type: 'string', format: 'email' }, count: { type: 'integer', minimum: 1 } },
    required: ['email', 'count'],
    additionalProperties: false,
  };

  it('is used as given, and read as unknown', () => {
    const output = objectOutput(schema);
    expect(output.jsonSchema).toBe(schema);
    const value = output.read('{"email": "ada@example.com", "count": 2}', 'stop');
    expectTypeOf(value).toBeUnknown();
    expect(value).toEqual({ email: 'ada@example.com', count: 2 });
  });

  it.each<[string, string, Array<{ path: string; message: string }>]>([
    ['a format', '{"email": "ada", "count": 2}', [{ path: 'email', message: 'Invalid email address' }]],
    ['a range', '{"email": "a@b.co", "count": 0}', [{ path: 'count', message: 'Too small: expected number to be >=1' }]],
    ['a missing key', '{"email": "a@b.co"}', [{ path: 'count', message: 'Invalid input: expected number, received undefined' }]],
    ['an extra key', '{"email": "a@b.co", "count": 1, "x": 1}', [{ path: '', message: 'Unrecognized key: "x"' }]],
  ])('validated with zod: %s', (_, text, issues) => {
    expect(refusal(() => objectOutput(schema).read(text, 'stop')).issues).toEqual(issues);
  });

  it.each<[string, unknown]>([
    ['a number', 42],
    ['an array', [{ type: 'string' }]],
    ['null', null],
    ['a schema zod cannot check (if/then)', { type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }],
    ['a schema with a function in it', { type: 'object', properties: { a: { type: 'string', default: () => 'x' } } }],
  ])('refuses %s with InvalidOptionsError', (_, schema) => {
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

  it('nothing until something parses', () => {
    expect(partialJson('')).toBeUndefined();
    expect(partialJson('  ')).toBeUndefined();
    expect(partialJson('{')).toEqual({});
  });

  it('every prefix gives a value that keeps all the keys of the one before, ending at the whole object', () => {
    let previous: unknown = undefined;
    for (let i = 1; i <= text.length; i++) {
      const value = partialJson(text.slice(0, i));
      expect(value, text.slice(0, i)).toBeTypeOf('object');
      expect(grows(previous, value), `${JSON.stringify(previous)} → ${JSON.stringify(value)}`).toBe(true);
      previous = value;
    }
    expect(previous).toEqual(JSON.parse(text));
  });

  it('a key shows only once its value begins; a literal is finished, not read as a string', () => {
    expect(partialJson('{"name": "Ada", "ag')).toEqual({ name: 'Ada' });
    expect(partialJson('{"name": "Ada", "age":')).toEqual({ name: 'Ada' });
    expect(partialJson('{"name": "Ada", "age": 3')).toEqual({ name: 'Ada', age: 3 });
    expect(partialJson('{"alive": tr')).toEqual({ alive: true });
    expect(partialJson('{"spouse": n')).toEqual({ spouse: null });
    expect(partialJson('{"works": [{"title": "No')).toEqual({ works: [{ title: 'No' }] });
  });

  it('partial values are not validated', () => {
    expect(partialJson('{"name": 5')).toEqual({ name: 5 });
  });
});

// The signature the chat API builds on.
expectTypeOf(objectOutput(person).read).parameters.toEqualTypeOf<[string, FinishReason]>();
