import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from './define-tool.js';
import { validateArguments } from './validate-arguments.js';

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
  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s as an unexpected field, also nested', async (key) => {
    const top = await check(JSON.parse(`{"seats": 1, "${key}": {"polluted": true}}`));
    expect(top).toEqual({ ok: false, issues: [{ path: key, message: 'unexpected field' }] });
    const nested = await check(JSON.parse(`{"seats": 1, "when": {"day": "Mon", "hour": 9, "${key}": {"polluted": true}}}`));
    expect(nested).toEqual({ ok: false, issues: [{ path: `when.${key}`, message: 'unexpected field' }] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
