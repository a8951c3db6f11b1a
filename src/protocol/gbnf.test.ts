// The GBNF for wllama is checked against the real xgrammar that WebLLM
// bundles: xgrammar reads GBNF too (its EBNF dialect is a superset of the
// subset gbnf-builder.ts writes), so each sample is run through the original
// constraint and through our translation, and both must answer alike.
// Tables mix replies that must pass and replies that must not, per family,
// tool choice and reasoning mode, then JSON Schema features one by one.
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallsText, toolCallText } from '../testing/calls.js';
import { REAL_TOOL_CALLS } from '../test-support/schema-corpus.js';
import { xgrammar } from '../test-support/xgrammar.js';
import { codecs } from './codecs.js';
import { toGbnf } from './gbnf.js';
import { Gbnf } from './gbnf-builder.js';
import { buildConstraint, buildOutputConstraint, excludingGrammar, notOpeningGrammar } from './grammar.js';
import { MAX_JSON_SPACE } from './json-schema-gbnf.js';
import type { Reasoning } from './types.js';
import { MODEL_FAMILIES, type ModelFamily, type ResponseFormat, type TagFormat, type ToolChoice, type ToolDeclaration } from '../shared/tool-protocol.js';

// More of xgrammar's API than test-support/xgrammar.ts types: one compiler,
// one matcher per grammar reset between samples (isGrammarAcceptString builds
// all three for every string, which is most of the time these tables take).
interface Matcher {
  _acceptString(text: string): boolean;
  isTerminated(): boolean;
  reset(): void;
}
interface XGrammarMore {
  TokenizerInfo: { createTokenizerInfo(vocab: string[]): Promise<unknown> };
  GrammarCompiler: { createGrammarCompiler(info: unknown, cache: boolean): Promise<{ compileGrammar(grammar: unknown): Promise<unknown> }> };
  GrammarMatcher: { createGrammarMatcher(compiled: unknown, stopTokens: undefined, terminateWithoutStopToken: boolean): Promise<Matcher> };
}

let xg: Awaited<ReturnType<typeof xgrammar>>;
let compiler: { compileGrammar(grammar: unknown): Promise<unknown> };
beforeAll(async () => {
  xg = await xgrammar();
  // The binding loads on first use: this first use comes alone, so it loads once.
  const more = xg as unknown as XGrammarMore;
  compiler = await more.GrammarCompiler.createGrammarCompiler(await more.TokenizerInfo.createTokenizerInfo([]), false);
}, 60_000);

type Accepts = (text: string) => boolean;
const matchers = new Map<string, Promise<Accepts>>();
function matcher(key: string, grammar: () => Promise<unknown>): Promise<Accepts> {
  if (!matchers.has(key)) {
    matchers.set(
      key,
      (async () => {
        const compiled = await compiler.compileGrammar(await grammar());
        const m = await (xg as unknown as XGrammarMore).GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
        return (text: string) => {
          m.reset();
          return m._acceptString(text) && m.isTerminated();
        };
      })(),
    );
  }
  return matchers.get(key)!;
}

/** The constraint as WebLLM's xgrammar reads it. */
const original = (format: ResponseFormat) =>
  matcher(JSON.stringify(format), () => (format.type === 'grammar' ? xg.Grammar.fromEBNF(format.grammar) : xg.Grammar.fromStructuralTag(format.structural_tag)));
/** Our GBNF, read by xgrammar's EBNF parser. */
const translated = (format: ResponseFormat) => matcher(`gbnf:${JSON.stringify(format)}`, () => xg.Grammar.fromEBNF(toGbnf(format)));

const tagFormat = (format: TagFormat): ResponseFormat => ({ type: 'structural_tag', structural_tag: { type: 'structural_tag', format } });
const json = (schema: unknown) => tagFormat({ type: 'json_schema', json_schema: schema as Record<string, unknown> });
const xml = (schema: unknown) => tagFormat({ type: 'qwen_xml_parameter', json_schema: schema as Record<string, unknown> });

/** Samples where the original constraint and the GBNF disagree (should be none), and how many each accepted. */
async function compare(format: ResponseFormat, samples: readonly string[]): Promise<{ mismatches: string[]; accepted: string[]; rejected: string[] }> {
  const want = await original(format);
  const got = await translated(format);
  const result = { mismatches: [] as string[], accepted: [] as string[], rejected: [] as string[] };
  for (const text of samples) {
    const [a, b] = [want(text), got(text)];
    if (a !== b) result.mismatches.push(`${JSON.stringify(text)}: xgrammar ${a}, gbnf ${b}`);
    (a ? result.accepted : result.rejected).push(text);
  }
  return result;
}

/** Compare, and make sure the table tells something: some samples pass, some do not. */
async function expectSameLanguage(format: ResponseFormat, samples: readonly string[]): Promise<void> {
  const { mismatches, accepted, rejected } = await compare(format, samples);
  expect(mismatches).toEqual([]);
  expect(accepted.length, 'no sample was accepted').toBeGreaterThan(0);
  expect(rejected.length, 'no sample was refused').toBeGreaterThan(0);
}

async function gbnfAccepts(format: ResponseFormat, text: string): Promise<boolean> {
  return (await translated(format))(text);
}

/**
 * What xgrammar does not check but llama.cpp's parser refuses: names outside
 * [A-Za-z0-9-], escapes it does not know, `.`/bare `|`, a rule over two lines,
 * repetition counts from 2000 on, undefined rules.
 */
function llamaCppProblems(gbnf: string): string[] {
  const problems: string[] = [];
  const defined = new Set<string>();
  const used = new Set<string>();
  for (const line of gbnf.trimEnd().split('\n')) {
    const head = /^([A-Za-z0-9-]+) ::= (.*)$/.exec(line);
    if (!head) {
      problems.push(`not a rule line: ${line.slice(0, 60)}`);
      continue;
    }
    defined.add(head[1]!);
    let body = head[2]!;
    if (/^\s*\||\|\s*\||\|\s*$|\(\s*\||\|\s*\)/.test(body.replace(/"(\\.|[^"\\])*"|\[(\\.|[^\]\\])*\]/g, 'X'))) problems.push(`empty alternative in ${head[1]}`);
    for (const m of body.matchAll(/"((?:\\.|[^"\\])*)"|\[((?:\\.|[^\]\\])*)\]/g)) {
      const inner = m[1] ?? m[2]!;
      for (const e of inner.matchAll(/\\(.)/g)) {
        if (!'xuUtrn\\"[]-'.includes(e[1]!)) problems.push(`escape \\${e[1]} in ${head[1]}`);
        if (e[1] === 'x') problems.push(`\\x in ${head[1]} (two hex digits for llama.cpp, any number for xgrammar)`);
      }
    }
    body = body.replace(/"(\\.|[^"\\])*"|\[(\\.|[^\]\\])*\]/g, ' ');
    if (/[^A-Za-z0-9\-\s()|*+?{},]/.test(body)) problems.push(`unexpected character in ${head[1]}: ${body}`);
    for (const m of body.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) if (Number(m[1]) >= 2000 || Number(m[2] || 0) >= 2000) problems.push(`repetition ${m[0]} in ${head[1]}`);
    for (const m of body.matchAll(/[A-Za-z][A-Za-z0-9-]*/g)) used.add(m[0]);
  }
  for (const name of used) if (!defined.has(name)) problems.push(`undefined rule ${name}`);
  return problems;
}

const weatherSchema = { type: 'object', properties: { location: { type: 'string' }, days: { type: 'integer' } }, required: ['location'], additionalProperties: false };
const tools: ToolDeclaration[] = [
  { name: 'get_weather', description: 'Weather for a city', parameters: weatherSchema },
  { name: 'get_time', description: 'Time', parameters: { type: 'object', properties: {}, additionalProperties: false } },
  {
    name: 'météo.plan',
    description: 'A richer schema, from zod',
    parameters: z.toJSONSchema(z.object({ mode: z.enum(['fast', 'a/b']), stops: z.array(z.object({ at: z.string(), n: z.int().min(0).max(99).optional() })).max(2), note: z.string().nullable() })),
  },
];
const CHOICES: ToolChoice[] = ['auto', 'required', 'none', { name: 'get_weather' }, { name: 'météo.plan' }];
const REASONING: Reasoning[] = ['none', 'think', 'opened'];

/** Replies a model of `family` might write: good calls, bad calls, text, and the borders between them. */
function replies(family: ModelFamily): string[] {
  const { opener } = codecs[family].format;
  const weather = toolCallText('get_weather', { location: 'Boston', days: 2 }, family);
  const time = toolCallText('get_time', {}, family);
  const both = toolCallsText([{ name: 'get_weather', arguments: { location: 'Paris' } }, { name: 'get_time' }], family);
  const plan = toolCallText('météo.plan', { mode: 'fast', stops: [{ at: 'x', n: 7 }, { at: 'y' }], note: null }, family);
  // Qwen's XML writes an enum's strings bare, as any string; quoted, they are refused (xgrammar's own reading took only those).
  const planned = family === 'qwen3.5' ? plan.replace('\nfast\n', '\n"fast"\n') : plan;
  const bodies = [
    '',
    'Just text.',
    '  Indented text',
    weather,
    time,
    both,
    toolCallsText([{ name: 'get_time' }], family, 'Let me check.'),
    `${weather} and some words after`,
    `${weather}\n${weather}`,
    `Text ${opener.slice(0, 3)}`,
    `Text ${opener}junk`,
    `${opener}`,
    toolCallText('delete_all', {}, family),
    toolCallText('get_weather', { location: 3 }, family),
    toolCallText('get_weather', { days: 2 }, family),
    toolCallText('get_weather', { location: 'Boston', extra: true }, family),
    weather.replace('"location": ', '"location":').replace('{"location"', '{ "location"'),
    weather.replace('{"location"', '{\n      "location"'),
    weather.replace('Boston', 'Bo\\"s\\u00e9ton 😀'),
    weather.replace('Boston', 'Bo\nston'),
    weather.slice(0, -1),
    plan,
    planned,
    planned.replace('"fast"', '"a\\/b"'),
    toolCallText('météo.plan', { mode: 'fast', stops: [], note: 'é' }, family),
    toolCallText('météo.plan', { mode: 'slow', stops: [], note: null }, family),
    toolCallText('météo.plan', { mode: 'fast', stops: [{}, {}, {}], note: null }, family),
    toolCallText('météo.plan', { mode: 'fast', stops: [{ at: 'x', n: -1 }], note: null }, family),
  ];
  const thinking = (body: string) => [`<think>\nThe weather.\n</think>\n\n${body}`, `<think></think>${body}`, `Reasoning first.\n</think>\n\n${body}`, `Reasoning </thin </think>${body}`];
  return [...bodies, ...[...bodies.slice(1, 8), plan, planned].flatMap(thinking), '<think>\nunfinished', '<think>x</think></think>'];
}

describe.each(MODEL_FAMILIES)('%s: the GBNF accepts exactly what xgrammar accepts', (family) => {
  it.each(REASONING)('reasoning %s, every tool choice', async (reasoning) => {
    const samples = replies(family);
    for (const choice of CHOICES) {
      const format = buildConstraint(codecs[family].format, tools, choice, reasoning)!;
      expect(llamaCppProblems(toGbnf(format))).toEqual([]);
      const { mismatches, accepted, rejected } = await compare(format, samples);
      expect(mismatches, `choice ${JSON.stringify(choice)}`).toEqual([]);
      expect(accepted.length).toBeGreaterThan(0);
      expect(rejected.length).toBeGreaterThan(0);
    }
  });
});

describe.each(MODEL_FAMILIES)("%s: real tools' schemas (test-support/schema-corpus.ts)", (family) => {
  it('the GBNF is one llama.cpp reads, and accepts what xgrammar accepts', async () => {
    for (const { name, schema, valid } of REAL_TOOL_CALLS) {
      const format = buildConstraint(codecs[family].format, [{ name: 'tool', description: '', parameters: schema }], 'required', 'none')!;
      expect(llamaCppProblems(toGbnf(format)), name).toEqual([]);
      const samples = [toolCallText('tool', valid, family), toolCallText('tool', {}, family), toolCallText('tool', { ...valid, zz: 1 }, family), 'text'];
      expect((await compare(format, samples)).mismatches, name).toEqual([]);
    }
  });
});

describe('structured output', () => {
  const person = z.object({ name: z.string(), tags: z.array(z.string()), age: z.int().optional() });
  const samples = ['{"name": "Ada", "tags": ["math"]}', '{\n  "name": "Ada",\n  "tags": [\n    "math"\n  ]\n}', '{"name":"Ada","tags":[],"age":36}', '{"name": "Ada"}', ' {"name": "Ada", "tags": []}', '{"name": "Ada", "tags": []}\n', 'Ada'];
  it.each(REASONING)('reasoning %s', async (reasoning) => {
    const format = buildOutputConstraint(z.toJSONSchema(person), reasoning);
    const wrap = { none: (s: string) => s, think: (s: string) => `<think>\nx\n</think>\n\n${s}`, opened: (s: string) => `x</think>${s}` }[reasoning];
    await expectSameLanguage(format, [...samples, ...samples.map(wrap)]);
  });
});

describe('grammar formats (xgrammar EBNF rewritten as GBNF)', () => {
  // ASCII words only: xgrammar 0.1.27 misreads classes naming other characters (see NOTHING in gbnf-builder.ts).
  const words = ['<tool_call>', '{"name": ', 'aab', 'a^b]c', 'x\\y"z', '[-]'];
  const texts = (word: string) => ['', 'plain', word, `x${word}y`, word.slice(0, -1), `${word.slice(0, -1)}!${word}`, ` ${word}`, '\n\t' + word.slice(1), 'aaab', 'é😀x', '😀'];
  it.each(words)('excludingGrammar(%j)', async (word) => {
    const format: ResponseFormat = { type: 'grammar', grammar: excludingGrammar(word) };
    expect(llamaCppProblems(toGbnf(format))).toEqual([]);
    await expectSameLanguage(format, texts(word));
  });
  it.each(words)('notOpeningGrammar(%j) before any text', async (word) => {
    const format = tagFormat({ type: 'sequence', elements: [{ type: 'grammar', grammar: notOpeningGrammar(word) }, { type: 'any_text' }] });
    expect(llamaCppProblems(toGbnf(format))).toEqual([]);
    await expectSameLanguage(format, texts(word));
  });
});

describe('structural tag features beyond what the codecs build today', () => {
  const f1: TagFormat = { type: 'tag', begin: '<f=a>', content: { type: 'json_schema', json_schema: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] } }, end: '</f>' };
  const f2: TagFormat = { type: 'tag', begin: '<f=b>', content: { type: 'any_text' }, end: '</f>' };
  const g1: TagFormat = { type: 'tag', begin: '[g]', content: { type: 'const_string', value: 'G' }, end: '[/g]' };
  const samples = ['', 'hi', '<f=a>{"x": 1}</f>', 'hi <f=a>{"x": 1}</f> bye', '<f=b>any <f= text</f>', '<f=b>no end', '<f=c>x</f>', '<f=a>{"x": 1}</f><f=b>t</f>', '[g]G[/g]', 'x[g]G[/g]<f=a>{"x":2}</f>', '[g]H[/g]', '<f=a>{"x": 1}</f>, <f=b>y</f>', '<f=a>{"x": 1}</f>,<f=b>y</f>', '<<f=a>{"x":1}</f>'];
  const cases: [string, TagFormat][] = [
    ['triggered_tags', { type: 'triggered_tags', triggers: ['<f='], tags: [f1, f2] }],
    ['two triggers', { type: 'triggered_tags', triggers: ['<f=', '[g]'], tags: [f1, f2, g1] }],
    ['at_least_one', { type: 'triggered_tags', triggers: ['<f='], tags: [f1, f2], at_least_one: true }],
    ['stop_after_first', { type: 'triggered_tags', triggers: ['<f='], tags: [f1, f2], stop_after_first: true }],
    ['at_least_one + stop_after_first', { type: 'triggered_tags', triggers: ['<f=', '[g]'], tags: [f1, f2, g1], at_least_one: true, stop_after_first: true }],
    ['tags_with_separator', { type: 'tags_with_separator', tags: [f1, f2], separator: ', ' }],
    ['tags_with_separator, at_least_one', { type: 'tags_with_separator', tags: [f1, f2], separator: ',', at_least_one: true }],
    ['tags_with_separator, stop_after_first', { type: 'tags_with_separator', tags: [f1, f2], separator: ',', stop_after_first: true }],
    ['or of limited', { type: 'or', elements: [f1, g1, { type: 'const_string', value: 'hi' }] }],
    ['sequence then any text', { type: 'sequence', elements: [{ type: 'const_string', value: 'h' }, { type: 'any_text' }] }],
    ['regex', { type: 'regex', pattern: '^(hi|bye)\\s*[a-z]{0,3}$' }],
    ['a tag around triggered tags', { type: 'tag', begin: 'hi', content: { type: 'triggered_tags', triggers: ['<f='], tags: [f1, f2] }, end: '</f> bye' }],
    ['a tag around separated tags', { type: 'tag', begin: '<', content: { type: 'tags_with_separator', tags: [f1, f2], separator: ',' }, end: '<f=b>t</f>' }],
    ['a tag around separated tags, separator = end', { type: 'tag', begin: 'hi', content: { type: 'tags_with_separator', tags: [f1], separator: ' bye' }, end: ' bye' }],
    ['a tag around stop-after-first triggered tags', { type: 'tag', begin: 'hi', content: { type: 'triggered_tags', triggers: ['<f='], tags: [f1], stop_after_first: true }, end: ' bye' }],
  ];
  it.each(cases)('%s', async (_, format) => {
    const extra = ['hi <f=a>{"x": 1}</f> bye', 'hi</f> bye', 'hi<f=a>{"x":1}</f></f> bye', 'hi<f=a>{"x":1}</f> bye', 'bye', 'hi  bye', '<<f=b>t</f>', '<f=a>{"x":1}</f>,<f=b>t</f>'];
    expect(llamaCppProblems(toGbnf(tagFormat(format)))).toEqual([]);
    await expectSameLanguage(tagFormat(format), [...samples, ...extra]);
  });

  it("watches for triggers the way xgrammar does (after 'aa' it misses 'aab')", async () => {
    const format = tagFormat({ type: 'triggered_tags', triggers: ['aab'], tags: [{ type: 'tag', begin: 'aab', content: { type: 'const_string', value: '!' }, end: '' }] });
    await expectSameLanguage(format, ['aab!', 'aaab', 'aaab!', 'xaab', 'xaab!', 'abaab!', 'aaaab', 'aab!aab', 'aab!aab!']);
    expect(await gbnfAccepts(format, 'aaab')).toBe(true);
  });

  it('triggered tags with no triggers are any text (xgrammar 0.1.27 crashes on them)', async () => {
    expect(await gbnfAccepts(tagFormat({ type: 'triggered_tags', triggers: [], tags: [] }), 'any <text>')).toBe(true);
  });
});

describe('JSON Schema', () => {
  const ws = (n: number) => ' '.repeat(n);
  const Tree: z.ZodType = z.object({
    name: z.string(),
    get children() {
      return z.array(Tree);
    },
  });
  const cases: [string, unknown, string[]][] = [
    ['zod object (declared order, optional, z.int bounds)', z.toJSONSchema(z.object({ a: z.string(), b: z.number().optional(), c: z.int() })), ['{"a": "x", "c": 1}', '{"a":"x","b":1.5e3,"c":-7}', '{"c": 1, "a": "x"}', '{"a": "x"}', '{"a": "x", "c": 1.5}', '{"a": "x", "c": 01}', '{"a": "x", "c": -0}', '{"a": "x", "c": 1, "d": 2}', '{"a": "x", "b": -0.5, "c": 0}', `{${ws(20)}"a":${ws(20)}"x",\n\t"c":1${ws(20)}}`]],
    ['optional properties in any subset, in order', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' }, c: { type: 'null' } } }, ['{}', '{ }', '{"b": true}', '{"a": "", "c": null}', '{"c": null, "a": ""}', '{"a": "", "b": false, "c": null}', '{"d": 1}', '{"b": true,}']],
    ['required in the middle', { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } }, required: ['b'] }, ['{"b": 1}', '{"a": 1, "b": 2}', '{"b": 1, "c": 2}', '{"a": 1, "c": 2}', '{}', '{"a":1,"b":2,"c":3}']],
    ['nested objects and arrays', z.toJSONSchema(z.object({ user: z.object({ name: z.string(), tags: z.array(z.string()).min(1).max(3) }), scores: z.array(z.number()) })), ['{"user": {"name": "a", "tags": ["x"]}, "scores": []}', '{"user": {"name": "a", "tags": []}, "scores": []}', '{"user": {"name": "a", "tags": ["x", "y", "z", "w"]}, "scores": [1]}', '{"user": {"name": "a", "tags": ["x","y"]}, "scores": [1, -2.5, 3e-2]}', '{"user": {"name": "a"}, "scores": []}', '{"user":{"name":"a","tags":[ "x" , "y" ]},"scores":[ ]}']],
    ['enum, literal, nullable, union', z.toJSONSchema(z.object({ e: z.enum(['x', 'y/z']), l: z.literal('on'), n: z.string().nullable(), u: z.union([z.string(), z.number()]) })), ['{"e": "x", "l": "on", "n": null, "u": 1}', '{"e": "y\\/z", "l": "on", "n": "s", "u": "t"}', '{"e": "z", "l": "on", "n": null, "u": 1}', '{"e": "x", "l": "off", "n": null, "u": 1}', '{"e": "x", "l": "on", "n": 1, "u": true}']],
    ['discriminated union (oneOf)', z.toJSONSchema(z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b'), v: z.string() })])), ['{"k": "a"}', '{"k": "b", "v": "x"}', '{"k": "a", "v": "x"}', '{"k": "b"}', '{"k": "c"}']],
    ['tuple (prefixItems, items false)', z.toJSONSchema(z.tuple([z.string(), z.int()])), ['["a", 1]', '["a"]', '["a", 1, 2]', '[1, "a"]', '[ "a" , 1 ]']],
    ['prefixItems with more items', { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' }, minItems: 2, maxItems: 3 }, ['["a"]', '["a", 1]', '["a", 1, 2]', '["a", 1, 2, 3]', '["a", "b"]']],
    ['record (propertyNames)', z.toJSONSchema(z.record(z.string(), z.number())), ['{}', '{"a": 1, "b": 2}', '{"a": "x"}', '{"a": 1,}', '{ "a" : 1 }']],
    ['loose object (additionalProperties {})', z.toJSONSchema(z.looseObject({ a: z.string() })), ['{"a": "x"}', '{"a": "x", "b": [1, {"c": null}]}', '{"b": 1}', '{"b": 1, "a": "x"}']],
    ['additionalProperties schema', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'integer' } }, ['{}', '{"a": "x"}', '{"a": "x", "b": 1}', '{"b": 1}', '{"b": "x"}', '{"a": "x", "b": 1, "c": 2}']],
    ['additionalProperties only', { type: 'object', additionalProperties: { type: 'boolean' } }, ['{}', '{ }', '{"a": true}', '{"a": true, "b": false}', '{"a": 1}']],
    ['unevaluatedProperties', { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: { type: 'integer' } }, ['{"a": "x", "b": 1}', '{"b": "x"}']],
    ['recursive ($ref "#")', z.toJSONSchema(Tree), ['{"name": "a", "children": []}', '{"name": "a", "children": [{"name": "b", "children": [{"name": "c", "children": []}]}]}', '{"name": "a", "children": [{"name": "b"}]}', '{"name": "a"}']],
    ['$defs and definitions', { type: 'object', properties: { a: { $ref: '#/$defs/pos' }, b: { $ref: '#/definitions/list' } }, $defs: { pos: { type: 'integer', minimum: 0 } }, definitions: { list: { type: 'array', items: { $ref: '#/definitions/list' } } } }, ['{"a": 1}', '{"a": -1}', '{"b": [[], [[]]]}', '{"b": [1]}', '{"a": 1, "b": []}']],
    ['string lengths (no escapes involved)', { type: 'string', minLength: 2, maxLength: 4 }, ['"ab"', '"abcd"', '"a"', '"abcde"', '"é😀"', '""']],
    ['pattern', { type: 'string', pattern: '^[a-z]+(-[a-z]+)*$' }, ['"abc"', '"ab-cd"', '"ab-"', '"AB"', '""']],
    ['formats', { type: 'object', properties: { d: { type: 'string', format: 'date' }, t: { type: 'string', format: 'date-time' }, u: { type: 'string', format: 'uuid' }, i: { type: 'string', format: 'ipv4' } } }, ['{"d": "2024-02-29"}', '{"d": "2024-13-01"}', '{"t": "2024-02-29T12:30:00Z"}', '{"t": "2024-02-29T12:30:00.5+01:00"}', '{"t": "2024-02-29 12:30:00Z"}', '{"u": "123e4567-e89b-12d3-a456-426614174000"}', '{"u": "123e4567"}', '{"i": "192.168.0.1"}', '{"i": "256.1.1.1"}']],
    ['true and {} (any value)', { type: 'object', properties: { a: true, b: {} } }, ['{"a": [1, {"x": "y"}], "b": null}', '{"a": -1.5e+3}', '{"a": tru}', '{"b": {"c": [true, false, null]}}']],
    ['basic object and array ({type} only)', { type: 'object', properties: { o: { type: 'object', description: 'anything' }, l: { type: 'array' } } }, ['{"o": {"x": 1}}', '{"l": [1, "a", []]}', '{"o": []}', '{"l": {}}']],
    ['object with no properties (exactly {})', { type: 'object', properties: {}, additionalProperties: false }, ['{}', '{ }', '{"a": 1}']],
    ['array with no items (strict: only [])', { type: 'array', minItems: 0, description: 'x' }, ['[]', '[ ]', '[1]']],
    ['const and enum values as xgrammar writes them', { type: 'object', properties: { c: { const: { a: [1, 'x/y'] } }, e: { enum: [0.1, 2, 'é\n', null, true] } } }, ['{"c": {"a":[1,"x\\/y"]}}', '{"c": {"a": [1, "x/y"]}}', '{"e": 0.10000000000000001}', '{"e": 2}', '{"e": "é\\n"}', '{"e": null}', '{"e": true}', '{"e": false}']],
    ['type arrays', { type: 'object', properties: { a: { type: ['integer', 'string', 'null'] } } }, ['{"a": 1}', '{"a": "x"}', '{"a": null}', '{"a": true}', '{"a": 1.5}']],
    ['strings: escapes, unicode, no raw control characters', { type: 'string' }, ['"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9"', '"é😀"', '"a\nb"', '"a\tb"', '"a\\x"', '"\\u00G0"', '"abc']],
    ['numbers', { type: 'array', items: { type: 'number' } }, ['[0, -0, 1.5, -2e10, 3E+2, 4.0e-1]', '[01]', '[1.]', '[.5]', '[+1]', '[1e]']],
    ['booleans and null', { type: 'array', items: { type: ['boolean', 'null'] } }, ['[true, false, null]', '[True]', '[nul]']],
  ];

  it.each(cases)('%s', async (_, schema, samples) => {
    expect(llamaCppProblems(toGbnf(json(schema)))).toEqual([]);
    await expectSameLanguage(json(schema), samples);
  });

  it(`whitespace between tokens is bounded (${MAX_JSON_SPACE} characters; xgrammar allows any amount)`, async () => {
    const schema = { type: 'object', properties: { a: { type: 'array', items: { type: 'integer' } } } };
    expect(await gbnfAccepts(json(schema), `{${ws(MAX_JSON_SPACE)}"a": [1,\n${ws(MAX_JSON_SPACE - 1)}2]}`)).toBe(true);
    for (const text of [`{${ws(MAX_JSON_SPACE + 1)}"a": [1]}`, `{"a": [1,${ws(MAX_JSON_SPACE + 1)}2]}`, `{"a"${ws(MAX_JSON_SPACE + 1)}: []}`]) {
      expect(await gbnfAccepts(json(schema), text), text).toBe(false);
      expect((await original(json(schema)))(text)).toBe(true);
    }
  });

  it('integer bounds limit the sign and the number of digits only (values are validated once read)', async () => {
    const schema = { type: 'integer', minimum: 0, maximum: 100 };
    for (const [text, ok] of [['0', true], ['100', true], ['999', true], ['1000', false], ['-1', false]] as const) expect(await gbnfAccepts(json(schema), text), text).toBe(ok);
  });

  it('strings with minLength/maxLength are JSON strings: escapes count as one character, raw control characters are refused', async () => {
    const schema = { type: 'string', minLength: 1, maxLength: 2 };
    for (const [text, ok] of [['"\\"a"', true], ['"\\u00e9"', true], ['"a\tb"', false], ['""', false]] as const) expect(await gbnfAccepts(json(schema), text), text).toBe(ok);
  });

  it('allOf merges its parts (xgrammar 0.1.27 allows any value)', async () => {
    const schema = { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } } }] };
    for (const [text, ok] of [['{"a": "x"}', true], ['{"a": "x", "b": 1}', true], ['{"b": 1}', false], ['5', false]] as const) expect(await gbnfAccepts(json(schema), text), text).toBe(ok);
  });

  it('const and enum values: besides the forms xgrammar writes (`\\/`, 17 digits), the plain JSON ones', async () => {
    const schema = { type: 'object', properties: { c: { const: { a: [1, 'x/y'] } }, e: { enum: [0.1, 'y/z'] } } };
    for (const text of ['{"c": {"a":[1,"x/y"]}}', '{"c": {"a":[1,"x\\/y"]}}', '{"e": 0.1}', '{"e": 0.10000000000000001}', '{"e": "y/z"}', '{"e": "y\\/z"}']) {
      expect(await gbnfAccepts(json(schema), text), text).toBe(true);
    }
    expect(await gbnfAccepts(json(schema), '{"e": 0.2}')).toBe(false);
  });

  it('a pattern no grammar can hold (lookahead) is any string; false is nothing (xgrammar aborts on it)', async () => {
    expect(await gbnfAccepts(json({ anyOf: [false, { type: 'integer' }] }), '1')).toBe(true);
    expect(await gbnfAccepts(json({ type: 'string', pattern: '^(?!x).*$' }), '"xyz"')).toBe(true);
    expect(await gbnfAccepts(json({ type: 'object', properties: { a: false } }), '{"a": 1}')).toBe(false);
    expect(await gbnfAccepts(json({ type: 'array', items: { type: 'integer' }, minItems: 3, maxItems: 2 }), '[]')).toBe(false);
  });

  it('zod email: the pattern constrains it (xgrammar uses its own email grammar)', async () => {
    const format = json(z.toJSONSchema(z.email()));
    expect(await gbnfAccepts(format, '"ada@example.com"')).toBe(true);
    expect(await gbnfAccepts(format, '"not an email"')).toBe(false);
  });
});

describe("Qwen's XML parameters", () => {
  const cases: [string, unknown, string[]][] = [
    ['strings, numbers, nested JSON', { type: 'object', properties: { location: { type: 'string' }, days: { type: 'integer' }, opts: { type: 'object', properties: { a: { type: 'string' } } }, tags: { type: 'array', items: { type: 'string' } } }, required: ['location'] }, ['<parameter=location>Boston</parameter>', '\n<parameter=location>\nBoston\n</parameter>\n<parameter=days>\n2\n</parameter>', '<parameter=location>a &amp; b \\n</parameter><parameter=opts>{"a": "x"}</parameter>', '<parameter=location>Bo</parameter><parameter=tags>["a", "b"]</parameter>', '<parameter=days>2</parameter>', '<parameter=location>a<b</parameter>', '<parameter=location>a\nb</parameter>', '<parameter=location>x</parameter><parameter=days>two</parameter>', '<parameter=days>2</parameter><parameter=location>x</parameter>', '']],
    ['optional only, enum and nullable', { type: 'object', properties: { e: { enum: ['x', 'y'] }, n: { type: ['string', 'null'] }, o: { type: 'object' }, l: { type: 'array' } } }, ['', '<parameter=e>"x"</parameter>', '<parameter=e>x</parameter>', '<parameter=n>null</parameter>', '<parameter=n>"s"</parameter>', '<parameter=n>s</parameter>', '<parameter=o>{}</parameter>', '<parameter=o>{"a": 1}</parameter>', '<parameter=l>[]</parameter>', '<parameter=l>[1]</parameter>', ' ']],
    ['additional parameters', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'integer' } }, ['<parameter=a>x</parameter>', '<parameter=a>x</parameter> <parameter=b>1</parameter>', '<parameter=b>1</parameter>', '<parameter=b>x</parameter>', '<parameter=b-c>1</parameter>']],
    ['string formats, patterns and lengths, and any value', { type: 'object', properties: { d: { type: 'string', format: 'date' }, p: { type: 'string', pattern: '^[a-z]+$' }, s: { type: 'string', maxLength: 3 }, v: {} } }, ['<parameter=d>2024-01-02</parameter>', '<parameter=d>"2024-01-02"</parameter>', '<parameter=p>abc</parameter>', '<parameter=p>ABC</parameter>', '<parameter=s>abc</parameter>', '<parameter=s>abcd</parameter>', '<parameter=v>text</parameter>', '<parameter=v>[1, 2]</parameter>']],
  ];
  it.each(cases)('%s', async (_, schema, samples) => {
    expect(llamaCppProblems(toGbnf(xml(schema)))).toEqual([]);
    await expectSameLanguage(xml(schema), samples);
  });
});

describe('GBNF text', () => {
  it('escapes names and values llama.cpp would misread, and writes code points outside ASCII by number', async () => {
    const name = 'say"hi\\\n\t^]-[é😀';
    const format = buildConstraint(codecs.hermes.format, [{ name, description: '', parameters: weatherSchema }], 'required', 'none')!;
    const gbnf = toGbnf(format);
    expect(llamaCppProblems(gbnf)).toEqual([]);
    expect(gbnf).toContain('\\"say\\\\\\"hi\\\\\\\\\\\\n\\\\t^]-[\\u00E9\\U0001F600\\"');
    expect(/[^\x00-\x7f]/.test(gbnf)).toBe(false);
    const call = toolCallText(name, { location: 'x' });
    await expectSameLanguage(format, [call, call.replace('é', 'e'), call.replace('😀', '😁'), toolCallText(name, { location: 1 })]);
    // Property names too (xgrammar 0.1.27 writes them into its grammar unescaped, so it cannot be the oracle here).
    const keyed = toGbnf(json({ type: 'object', properties: { 'k"\\é': { type: 'string' } }, required: ['k"\\é'] }));
    expect(keyed).toContain('"\\"k\\\\\\"\\\\\\\\\\u00E9\\""');
    expect(await gbnfAccepts(json({ type: 'object', properties: { 'k"\\é': { type: 'string' } }, required: ['k"\\é'] }), '{"k\\"\\\\é": "v"}')).toBe(true);
  });

  it('refuses what xgrammar refuses in structural tags', () => {
    expect(() => toGbnf(tagFormat({ type: 'sequence', elements: [{ type: 'any_text' }, { type: 'const_string', value: 'x' }] }))).toThrow(/last element/);
    expect(() => toGbnf(tagFormat({ type: 'or', elements: [{ type: 'any_text' }, { type: 'const_string', value: 'x' }] }))).toThrow(/mix/);
    expect(() => toGbnf(tagFormat({ type: 'tag', begin: 'a', content: { type: 'any_text' }, end: '' }))).toThrow(/end/);
    expect(() => toGbnf(tagFormat({ type: 'triggered_tags', triggers: ['<a', '<'], tags: [{ type: 'tag', begin: '<ab', content: { type: 'any_text' }, end: 'x' }] }))).toThrow(/trigger/);
  });
});

describe('rule names', () => {
  it('20,000 rules of one kind (a schema with that many properties) each get their own name, numbered once each', () => {
    const g = new Gbnf();
    const names = Array.from({ length: 20_000 }, () => g.name('props'));
    expect(new Set(names).size).toBe(20_000);
    expect(names.slice(0, 3)).toEqual(['props', 'props-2', 'props-3']);
  });
});
