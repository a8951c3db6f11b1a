// A `pattern` in the grammar means what ECMA-262's RegExp#test says it
// means (JSON Schema's reading): for each pattern and sample, the real
// xgrammar and our GBNF admit the JSON string exactly when the RegExp finds
// a match in it.
import { Validator, type Schema } from '@cfworker/json-schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { grammarAccepts, xgrammar } from '../test-support/xgrammar.js';
import { toGbnf } from './gbnf.js';
import { z } from 'zod';
import { toolCallText } from '../testing/calls.js';
import { tool } from '../tools/define-tool.js';
import { validateArguments } from '../tools/validate-arguments.js';
import type { ResponseFormat } from '../shared/tool-protocol.js';
import { codecs } from './codecs.js';
import { buildConstraint, buildOutputConstraint } from './grammar.js';
import { grammarSchema } from './grammar-schema.js';
import { searchingPattern } from './schema-meaning.js';

beforeAll(() => xgrammar(), 60_000);

// Characters a JSON string holds unescaped only: an open end takes those (schema-meaning.ts).
const SAMPLES = ['', 'a', 'b', 'ab', 'ba', 'abc', 'xxabcxx', 'https://example.com/a?b=1&c=2', 'http://', 'ftp://x', 'x$', 'x$y', 'ac', 'bc', 'zc', '|', 'a|b', 'Zoë 😀', 'ABC-12', 'abc-12'];
const PATTERNS = ['^https?://', 'abc', '^a|b$', 'x\\$$', '^[a-z]+-[0-9]+$', '[|$]', 'a\\|b', '^$', 'é|😀', 'c$', '^(?:a|b)'];

describe('a pattern searches, in both engines', () => {
  it.each(PATTERNS)('%s', async (pattern) => {
    const format = buildOutputConstraint({ type: 'string', pattern }, 'none');
    const gbnf = { type: 'grammar' as const, grammar: toGbnf(format) };
    const wrong: string[] = [];
    for (const sample of SAMPLES) {
      const want = new RegExp(pattern, 'u').test(sample);
      const text = JSON.stringify(sample);
      if ((await grammarAccepts(format, text)) !== want) wrong.push(`xgrammar ${text}`);
      if ((await grammarAccepts(gbnf, text)) !== want) wrong.push(`GBNF ${text}`);
    }
    expect(wrong).toEqual([]);
  });

  it('anchors inside a group are read as no anchor: more is admitted, never less', async () => {
    const format = buildOutputConstraint({ type: 'string', pattern: '(^a|b)c' }, 'none');
    for (const sample of ['ac', 'xbcx', 'xac']) expect(await grammarAccepts(format, JSON.stringify(sample)), sample).toBe(true);
  });

  it('an anchored pattern is left as written; the rewrite of an open one is stable', () => {
    expect(searchingPattern('^[a-z]+$')).toBe('^[a-z]+$');
    expect(searchingPattern(searchingPattern('^https?://'))).toBe(searchingPattern('^https?://'));
    expect(grammarSchema({ type: 'string', pattern: 'x\\$$' })).toEqual({ type: 'string', pattern: '^[^"\\\\\\x00-\\x1f]*x\\$$' });
  });

  it('patternProperties keys search too', async () => {
    const format = buildOutputConstraint({ type: 'object', patternProperties: { '^x-': { type: 'integer' } }, additionalProperties: false }, 'none');
    expect(await grammarAccepts(format, '{"x-rate": 1}')).toBe(true);
    expect(await grammarAccepts({ type: 'grammar', grammar: toGbnf(format) }, '{"x-rate": 1}')).toBe(true);
    expect(await grammarAccepts(format, '{"rate": 1}')).toBe(false);
  });
});

// What JSON Schema leaves open stays open; xgrammar's strict reading had closed it, and aborted on some.
describe('items and keys a schema leaves open are open, in both engines', () => {
  const engines = async (schema: Record<string, unknown>, text: string) => {
    const format = buildOutputConstraint(schema, 'none');
    return { xgrammar: await grammarAccepts(format, text), gbnf: await grammarAccepts({ type: 'grammar', grammar: toGbnf(format) }, text) };
  };
  /** The schema as a tool's one argument, its `$defs` at the root where a `$ref` finds them. */
  const object = ({ $defs, ...value }: Record<string, unknown>) => ({ type: 'object', properties: { value }, required: ['value'], ...($defs ? { $defs } : {}) });

  it.each([
    ['an array with minItems and no items (an MCP server\'s "at least one tag")', { type: 'array', minItems: 1 }, '["a", 2]'],
    ['an array with maxItems and no items', { type: 'array', maxItems: 3 }, '[{"a": 1}]'],
    ['an array with uniqueItems and no items', { type: 'array', uniqueItems: true }, '["a", "b"]'],
    ['items after prefixItems', { type: 'array', prefixItems: [{ type: 'string' }] }, '["a", 1]'],
    ['an object with minProperties and no properties', { type: 'object', minProperties: 1 }, '{"a": 1}'],
    ['an object with an OpenAPI keyword and no properties', { type: 'object', nullable: true }, '{"a": 1}'],
    ['a $ref to a name with a space (%20)', { $ref: '#/$defs/my%20type', $defs: { 'my type': { type: 'integer' } } }, '1'],
    ['a $ref to a name with a slash (~1)', { $ref: '#/$defs/a~1b', $defs: { 'a/b': { type: 'integer' } } }, '1'],
  ])('%s', async (_, schema, text) => {
    const value = JSON.parse(text) as unknown;
    // The oracle: a JSON Schema validator tabagent did not write.
    expect(new Validator(object(schema) as Schema, '2020-12').validate({ value }).valid).toBe(true);
    expect(await engines(object(schema), `{"value": ${text}}`)).toEqual({ xgrammar: true, gbnf: true });
  });

  it('the bounds still hold, and an object that names its keys admits no other (docs/tools.md)', async () => {
    expect(await engines(object({ type: 'object', required: ['a'] }), '{"value": {"a": 1, "b": 2}}')).toEqual({ xgrammar: false, gbnf: false });
    expect(await engines(object({ type: 'object', required: ['a'] }), '{"value": {"a": 1}}')).toEqual({ xgrammar: true, gbnf: true });
    expect(await engines(object({ type: 'array', maxItems: 1 }), '{"value": [1, 2]}')).toEqual({ xgrammar: false, gbnf: false });
    expect(await engines(object({ type: 'array', minItems: 2 }), '{"value": [1]}')).toEqual({ xgrammar: false, gbnf: false });
  });
});

// xgrammar reads these narrower than JSON Schema: valid values could not be written at all.
describe('what the engines read narrower is left to the argument check', () => {
  const accepted = async (format: ResponseFormat, text: string) => ({ xgrammar: await grammarAccepts(format, text), gbnf: await grammarAccepts({ type: 'grammar', grammar: toGbnf(format) }, text) });
  const both = { xgrammar: true, gbnf: true };

  it('a bounded string may hold ", \\ and a line break; the check still holds the bound', async () => {
    const note = tool({ name: 'note', description: '', input: z.object({ text: z.string().min(1).max(20) }), run: () => 1 });
    const format = buildConstraint(codecs.hermes.format, [note], 'required', 'none')!;
    for (const text of ['say "hi"', 'line 1\nline 2', 'C:\\Users']) {
      expect(await validateArguments(note.input, note.parameters, { text })).toMatchObject({ ok: true });
      expect(await accepted(format, toolCallText('note', { text })), JSON.stringify(text)).toEqual(both);
    }
    expect(await validateArguments(note.input, note.parameters, { text: 'x'.repeat(21) })).toMatchObject({ ok: false });
  });

  it('a bounded number may have more than six decimals; the check still holds the bounds', async () => {
    const map = tool({ name: 'map', description: '', input: z.object({ lat: z.number().min(-90).max(90) }), run: () => 1 });
    const format = buildConstraint(codecs.hermes.format, [map], 'required', 'none')!;
    expect(await accepted(format, toolCallText('map', { lat: 48.8583701 }))).toEqual(both);
    expect(await validateArguments(map.input, map.parameters, { lat: 91 })).toMatchObject({ ok: false });
  });

  it('a property name holding a backslash is left to the check, not refused', async () => {
    const format = buildOutputConstraint({ type: 'object', properties: { 'a\\b': { type: 'string' } }, required: ['a\\b'] }, 'none');
    expect(await accepted(format, JSON.stringify({ 'a\\b': 'x' }))).toEqual(both);
  });

  it('formats: a URI with an IPv6 host, RFC 3339 times with a lowercase t and z; a date that is no date is still refused', async () => {
    const string = (format: string) => buildOutputConstraint({ type: 'string', format }, 'none');
    expect(await accepted(string('uri'), '"http://[::1]:8080/"')).toEqual(both);
    expect(await accepted(string('date-time'), '"2024-02-29t12:30:00z"')).toEqual(both);
    expect(await accepted(string('time'), '"12:30:00z"')).toEqual(both);
    expect(await accepted(string('date-time'), '"2024-02-29T12:30:00Z"')).toEqual(both);
    expect(await accepted(string('date'), '"2024-13-01"')).toEqual({ xgrammar: false, gbnf: false });
  });
});

// The engines read a $ref, an anyOf/oneOf, an allOf or keys by pattern alone, and write every prefixItems item: what JSON Schema reads beside them could not be written.
describe('what the engines read alone is left to the argument check', () => {
  const engines = async (schema: Record<string, unknown>, text: string) => {
    const format = buildOutputConstraint(schema, 'none');
    return { xgrammar: await grammarAccepts(format, text), gbnf: await grammarAccepts({ type: 'grammar', grammar: toGbnf(format) }, text) };
  };
  const base = { type: 'object', properties: { a: { type: 'string' } } };

  it.each<[string, Record<string, unknown>, unknown]>([
    ['a $ref beside properties', { type: 'object', $defs: { base }, $ref: '#/$defs/base', properties: { b: { type: 'integer' } }, required: ['b'] }, { b: 1 }],
    ['properties beside a one-part allOf', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], allOf: [{ properties: { b: { type: 'integer' } } }] }, { a: 'x' }],
    ['properties beside anyOf', { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ properties: { b: { type: 'integer' } } }] }, { a: 'x' }],
    ['a discriminated oneOf beside properties', { type: 'object', properties: { kind: { type: 'string' }, x: { type: 'number' }, y: { type: 'number' } }, oneOf: [{ properties: { kind: { const: 'a' } } }, { properties: { kind: { const: 'b' } } }] }, { kind: 'a', x: 1, y: 2 }],
    ['an allOf of a $ref and more', { $defs: { base }, allOf: [{ $ref: '#/$defs/base' }, { properties: { b: { type: 'integer' } }, required: ['b'] }] }, { a: 'x', b: 1 }],
    ['keys by pattern beside declared ones', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], patternProperties: { '^x-': {} } }, { name: 'a', 'x-b': 1 }],
    ['a tuple with an optional end, given short', { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 1, maxItems: 2 }, ['a']],
    ['prefixItems with none given', { type: 'array', prefixItems: [{ type: 'string' }] }, []],
  ])('%s', async (_, schema, value) => {
    // The oracle: a JSON Schema validator tabagent did not write.
    expect(new Validator(schema as Schema, '2020-12').validate(value).valid).toBe(true);
    expect(await engines(schema, JSON.stringify(value))).toEqual({ xgrammar: true, gbnf: true });
  });

  it('a whole tuple and a plain $ref still hold', async () => {
    const pair = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 2, maxItems: 2 };
    expect(await engines(pair, '["a", 1]')).toEqual({ xgrammar: true, gbnf: true });
    expect(await engines(pair, '[1, "a"]')).toEqual({ xgrammar: false, gbnf: false });
    expect(await engines({ $defs: { base }, $ref: '#/$defs/base' }, '{"a": 1}')).toEqual({ xgrammar: false, gbnf: false });
  });
});

describe('keys `required` names but `properties` does not declare', () => {
  it('are declared where `required` places them: before the next declared key it names, else last', () => {
    const schema = grammarSchema({ type: 'object', properties: { b: { type: 'string' }, d: { type: 'string' } }, required: ['a', 'b', 'c', 'd', 'e'] }) as { properties: object };
    expect(Object.keys(schema.properties)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('a server schema requiring 4,000 of them is declared in one pass (it took 17 s, on the worker, before)', () => {
    const required = Array.from({ length: 4000 }, (_, i) => `key${i}`);
    const schema = grammarSchema({ type: 'object', properties: { key1999: { type: 'integer' } }, required }) as { properties: object };
    expect(Object.keys(schema.properties)).toEqual(required);
  });
});
