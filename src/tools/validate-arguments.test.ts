import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from './define-tool.js';
import { validateArguments } from './validate-arguments.js';
import { UNSAFE_KEY_MESSAGE, unsafeKeyPaths, withoutUnsafeKeys } from './unsafe-keys.js';

const booking = tool({
  name: 'book',
  description: 'Book seats',
  input: z.object({
    seats: z.number().int().min(1),
    vip: z.boolean().optional(),
    names: z.array(z.string()).optional(),
    when: z.object({ day: z.string(), hour: z.number() }).optional(),
    note: z.string().nullable().optional(),
    limit: z.number().nullable().optional(),
  }),
  run: () => 'ok',
});

const check = (args: unknown) => validateArguments(booking.input, booking.parameters, args);

describe('argument validation', () => {
  it('coerces the common model mistakes', async () => {
    expect(await check({ seats: '3', vip: 'true', names: 'Ada', when: { day: 'Mon', hour: '9' } })).toEqual({
      ok: true,
      value: { seats: 3, vip: true, names: ['Ada'], when: { day: 'Mon', hour: 9 } },
    });
    expect(await check({ seats: 2, when: '{"day": "Tue", "hour": 10}' })).toEqual({ ok: true, value: { seats: 2, when: { day: 'Tue', hour: 10 } } });
    expect(await check({ seats: 1, limit: 'null', note: 'null' })).toEqual({ ok: true, value: { seats: 1, limit: null, note: 'null' } });
  });

  it('names the bad fields', async () => {
    const result = await check({ seats: 'many', vip: 'maybe' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.path).sort()).toEqual(['seats', 'vip']);
  });

  it('refuses missing and unexpected fields, also nested', async () => {
    const result = await check({ vip: true, colour: 'red', when: { day: 'Mon', hour: 1, minute: 3 } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => `${i.path}: ${i.message}`)).toEqual(
      expect.arrayContaining(['colour: unexpected field', 'when.minute: unexpected field', expect.stringMatching(/^seats: /)]),
    );
  });

  it('does not turn a non-integer string into an integer', async () => {
    expect((await check({ seats: '2.5' })).ok).toBe(false);
  });

  it('lets a loose object keep extra fields', async () => {
    const loose = tool({ name: 'loose', description: '', input: z.looseObject({ a: z.string() }), run: () => 1 });
    expect(await validateArguments(loose.input, loose.parameters, { a: 'x', b: 2 })).toEqual({ ok: true, value: { a: 'x', b: 2 } });
  });
});

describe('keys that are not data', () => {
  const reserved = (path: string) => ({ ok: false, issues: [{ path, message: UNSAFE_KEY_MESSAGE }] });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s, naming where, also nested', async (key) => {
    expect(await check(JSON.parse(`{"seats": 1, "${key}": {"polluted": true}}`))).toEqual(reserved(key));
    expect(await check(JSON.parse(`{"seats": 1, "when": {"day": "Mon", "hour": 9, "${key}": {"polluted": true}}}`))).toEqual(reserved(`when.${key}`));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  // Where the schema names no fields, nothing above looked inside: a handler got
  // an own `__proto__` under z.unknown(), and z.record dropped it without a word.
  const configure = tool({
    name: 'configure',
    description: 'Configure',
    input: z.object({ opts: z.unknown().optional(), scores: z.record(z.string(), z.number()).optional(), list: z.array(z.unknown()).optional() }),
    run: () => 'ok',
  });
  const loose = (args: string) => validateArguments(configure.input, configure.parameters, JSON.parse(args));

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s at any depth where the schema names no fields (z.unknown, z.record, lists)', async (key) => {
    expect(await loose(`{"opts": {"${key}": {"polluted": true}}}`)).toEqual(reserved(`opts.${key}`));
    expect(await loose(`{"opts": {"a": [1, {"b": {"${key}": 1}}]}}`)).toEqual(reserved(`opts.a.1.b.${key}`));
    expect(await loose(`{"scores": {"a": 1, "${key}": 2}}`)).toEqual(reserved(`scores.${key}`));
    expect(await loose(`{"list": [{}, {"${key}": {}}]}`)).toEqual(reserved(`list.1.${key}`));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names every such key, once each', async () => {
    const result = await loose('{"opts": {"__proto__": {"constructor": 1}}, "scores": {"prototype": 1}}');
    expect(result.ok || result.issues.map((i) => i.path)).toEqual(['opts.__proto__', 'opts.__proto__.constructor', 'scores.prototype']);
  });

  it('still lets the same words through as values', async () => {
    expect(await loose('{"opts": {"name": "__proto__"}, "list": ["constructor"]}')).toEqual({ ok: true, value: { opts: { name: '__proto__' }, list: ['constructor'] } });
  });
});

describe('unsafeKeyPaths and withoutUnsafeKeys', () => {
  it('find and drop the keys at any depth, keeping everything else', () => {
    const value = JSON.parse('{"q": "x", "__proto__": {"p": 1}, "opts": [{"constructor": 1, "keep": 2}]}');
    expect(unsafeKeyPaths(value)).toEqual(['__proto__', 'opts.0.constructor']);
    const clean = withoutUnsafeKeys(value);
    expect(clean).toEqual({ q: 'x', opts: [{ keep: 2 }] });
    expect(Object.hasOwn(clean, '__proto__')).toBe(false);
  });
});
