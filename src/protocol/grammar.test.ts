// Grammars are checked with the real xgrammar that WebLLM bundles: each must
// compile, accept what the parser reads as a good call, refuse the rest, and
// agree with the parser on where a call may start.
import { beforeAll, describe, expect, it } from 'vitest';
import { toolCallsText, toolCallText } from '../testing/calls.js';
import { grammarAccepts, xgrammar } from '../test-support/xgrammar.js';
import { CallScanner } from './call-scanner.js';
import { codecs } from './codecs.js';
import { buildConstraint, buildOutputConstraint, excludingGrammar } from './grammar.js';
import { type Reasoning } from './types.js';
import { MODEL_FAMILIES, type ModelFamily, type ToolChoice, type ToolDeclaration } from '../shared/tool-protocol.js';

const tools: ToolDeclaration[] = [
  {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { location: { type: 'string' }, days: { type: 'integer' } }, required: ['location'], additionalProperties: false },
  },
  { name: 'get_time', description: 'Time', parameters: { type: 'object', properties: {}, additionalProperties: false } },
];

let xg: Awaited<ReturnType<typeof xgrammar>>;
beforeAll(async () => {
  xg = await xgrammar();
}, 60_000);

const grammarFor = (family: ModelFamily, choice: ToolChoice, reasoning: Reasoning = 'none') => buildConstraint(codecs[family].format, tools, choice, reasoning);
const scan = (family: ModelFamily, text: string) => {
  const scanner = new CallScanner(codecs[family].format);
  scanner.push(text);
  return scanner.finish('stop');
};

describe.each(MODEL_FAMILIES)('%s grammars', (family) => {
  const weather = toolCallText('get_weather', { location: 'Boston', days: 2 }, family);
  const time = toolCallText('get_time', {}, family);

  it('auto: text or calls, and the parser reads exactly the calls the grammar let through', async () => {
    const g = grammarFor(family, 'auto');
    for (const text of ['Just text.', weather, toolCallsText([{ name: 'get_weather', arguments: { location: 'Paris' } }, { name: 'get_time' }], family)]) {
      expect(await grammarAccepts(g, text), text).toBe(true);
    }
    // XML parameters are text; argument validation coerces "2" for an integer, as for any model.
    const days = family === 'qwen3.5' ? '2' : 2;
    expect(scan(family, weather).calls).toEqual([{ name: 'get_weather', arguments: { location: 'Boston', days } }]);
    expect(await grammarAccepts(g, toolCallText('delete_all', {}, family))).toBe(false);
  });

  it('auto: a call with arguments that break the schema is refused (where the format has JSON arguments)', async () => {
    if (family === 'gemma4' || family === 'qwen3.5') return;
    expect(await grammarAccepts(grammarFor(family, 'auto'), toolCallText('get_weather', { location: 3 }, family))).toBe(false);
  });

  it('required: a call must come first', async () => {
    const g = grammarFor(family, 'required');
    expect(await grammarAccepts(g, weather)).toBe(true);
    expect(await grammarAccepts(g, 'No tools today.')).toBe(false);
  });

  it('a named tool: exactly that call', async () => {
    const g = grammarFor(family, { name: 'get_time' });
    expect(await grammarAccepts(g, time)).toBe(true);
    expect(await grammarAccepts(g, weather)).toBe(false);
    expect(await grammarAccepts(g, 'text')).toBe(false);
  });

  it('none: any text without a call', async () => {
    const g = grammarFor(family, 'none');
    expect(await grammarAccepts(g, 'Plain <b>text</b> with <tool tags')).toBe(true);
    expect(await grammarAccepts(g, weather)).toBe(false);
  });
});

describe('where a call may start', () => {
  it('Llama: a call only as the whole reply; the same JSON later on is text, for the grammar and the parser alike', async () => {
    const g = grammarFor('llama', 'auto');
    const midLine = 'Sure: {"name": "get_weather", "parameters": {"location": "Boston"}}';
    expect(await grammarAccepts(g, midLine)).toBe(true);
    expect(scan('llama', midLine)).toMatchObject({ text: midLine, calls: [] });
    // A JSON answer that happens to have a `name` key, after some words, is an answer.
    const answer = 'Here it is: {"name": "Ada", "born": 1815}';
    expect(await grammarAccepts(g, answer)).toBe(true);
    expect(scan('llama', answer).calls).toEqual([]);
  });

  it('Qwen3 thinking: the think block first, then the forced call after its blank line', async () => {
    const call = toolCallText('get_weather', { location: 'Boston' }, 'qwen3');
    expect(await grammarAccepts(grammarFor('qwen3', 'required', 'think'), `<think>\nNeed the weather.\n</think>\n\n${call}`)).toBe(true);
    expect(await grammarAccepts(grammarFor('qwen3', { name: 'get_weather' }, 'think'), `<think>\nok\n</think>\n\n${call}`)).toBe(true);
    expect(await grammarAccepts(grammarFor('qwen3', 'required', 'think'), call)).toBe(false);
  });

  it('Qwen3 with thinking off: WebLLM writes the empty think block, so the grammar asks for none', async () => {
    const call = toolCallText('get_weather', { location: 'Boston' }, 'qwen3');
    expect(await grammarAccepts(grammarFor('qwen3', 'required', 'none'), call)).toBe(true);
    expect(await grammarAccepts(grammarFor('qwen3', 'required', 'none'), `<think>\nx\n</think>\n\n${call}`)).toBe(false);
  });

  it('a template that opened the think block: reasoning up to </think>, then the reply', async () => {
    const call = toolCallText('get_weather', { location: 'Boston' }, 'qwen3.5');
    expect(await grammarAccepts(grammarFor('qwen3.5', 'auto', 'opened'), `The user wants weather.\n</think>\n\n${call}`)).toBe(true);
    expect(await grammarAccepts(grammarFor('qwen3.5', { name: 'get_weather' }, 'opened'), `ok</think>\n\n${call}`)).toBe(true);
  });
});

describe('excludingGrammar', () => {
  it.each([
    ['abc', 'xxabx ab c', true],
    ['abc', 'xxabcx', false],
    ['aab', 'aaab', false],
    ['aab', 'aaxab', true],
    ['{"name"', '{"nam" {"name', true],
  ])('word %j in %j: accepted %s', async (word, text, ok) => {
    expect(await xg.Testings.isGrammarAcceptString(await xg.Grammar.fromEBNF(excludingGrammar(word)), text)).toBe(ok);
  });

  it('no grammar when there is nothing to call', () => {
    expect(buildConstraint(codecs.hermes.format, [], 'auto', 'none')).toBeUndefined();
  });
});

describe('structured output', () => {
  const person = { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['name', 'tags'], additionalProperties: false };
  const good = '{"name": "Ada", "tags": ["math"]}';
  const think = (text: string) => `<think>\nA person.\n</think>\n\n${text}`;

  it.each<[Reasoning, (text: string) => string]>([
    ['none', (text) => text],
    ['think', think],
    ['opened', (text) => `A person.\n</think>\n\n${text}`],
  ])('reasoning %s: JSON that fits the schema, and nothing else', async (reasoning, wrap) => {
    const g = buildOutputConstraint(person, reasoning);
    expect(await grammarAccepts(g, wrap(good))).toBe(true);
    // Any whitespace inside the value, as a model pretty-prints it.
    expect(await grammarAccepts(g, wrap('{\n  "name": "Ada",\n  "tags": [\n    "math"\n  ]\n}'))).toBe(true);
    for (const bad of ['{"name": "Ada"}', '{"name": "Ada", "tags": "math"}', '{"name": 1, "tags": []}', '{"name": "Ada", "tags": [], "age": 36}', 'Ada likes math.']) {
      expect(await grammarAccepts(g, wrap(bad)), bad).toBe(false);
    }
  });

  it('no whitespace before or after the value (xgrammar json_schema), but any after a think block', async () => {
    const g = buildOutputConstraint(person, 'none');
    expect(await grammarAccepts(g, ` ${good}`)).toBe(false);
    expect(await grammarAccepts(g, `${good}\n`)).toBe(false);
    for (const gap of ['', '\n\n', ' \n\t ']) {
      expect(await grammarAccepts(buildOutputConstraint(person, 'think'), `<think>x</think>${gap}${good}`)).toBe(true);
    }
  });

  it('a reasoning model must think first', async () => {
    expect(await grammarAccepts(buildOutputConstraint(person, 'think'), good)).toBe(false);
    expect(await grammarAccepts(buildOutputConstraint(person, 'none'), think(good))).toBe(false);
  });
});
