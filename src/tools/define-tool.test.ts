import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidOptionsError } from '../errors/index.js';
import { rawTool, tool } from './define-tool.js';

describe('tool()', () => {
  it('describes its input as JSON Schema, closed to unknown fields', () => {
    const t = tool({
      name: 'get_weather',
      description: 'Weather',
      input: z.object({ location: z.string().describe("city and state, e.g. 'Boston, MA'"), days: z.number().int().default(1) }),
      run: async ({ location, days }) => ({ location, days }),
    });
    expect(t.parameters).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: "city and state, e.g. 'Boston, MA'" },
        days: { type: 'integer', default: 1, minimum: expect.any(Number), maximum: expect.any(Number) },
      },
      required: ['location'],
      additionalProperties: false,
    });
    expect(t.onError).toBe('return');
  });

  it.each([
    ['a bad name', { name: 'has space', description: '', input: z.object({}), run: (): number => 1 }],
    ['a non-object input', { name: 'x', description: '', input: z.string(), run: (): number => 1 }],
    ['a bad policy', { name: 'x', description: '', input: z.object({}), run: (): number => 1, onError: 'ignore' }],
    ['no run', { name: 'x', description: '', input: z.object({}) }],
  ])('rejects %s with InvalidOptionsError', (_, definition) => {
    expect(() => tool(definition as never)).toThrow(InvalidOptionsError);
  });

  it('rawTool takes a hand-written schema', () => {
    const t = rawTool({ name: 'search_web', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
    expect(t.kind).toBe('raw');
    expect(() => rawTool({ name: 's', description: '', parameters: { type: 'string' } })).toThrow(InvalidOptionsError);
    // The schema travels to the worker and into the prompt: JSON only, checked when the tool is made.
    const withFunction = { type: 'object', properties: { q: { type: 'string', default: () => 'x' } } };
    expect(() => rawTool({ name: 's', description: '', parameters: withFunction })).toThrow(/parameters.*a function at properties\.q\.default is not JSON/);
    expect(() => rawTool({ name: 's', description: '', parameters: { type: 'object', properties: { n: { maximum: 10n } } } })).toThrow(/BigInt/);
  });
});
