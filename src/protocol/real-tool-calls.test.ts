// Real tools' schemas and their correct calls (test-support/schema-corpus.ts,
// REAL_TOOL_CALLS) in every call format: the call as tabagent writes it must
// pass the real xgrammar (WebLLM) and our GBNF (wllama; read here by
// xgrammar's EBNF parser) under every tool choice, and come back through the
// scanner and the validator equal to the ground truth. A key an object does
// not declare, where additionalProperties is unset, is refused by both.
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonSchemaInput } from '../tools/json-schema-input.js';
import { REAL_TOOL_CALLS, UNDECLARED_KEY } from '../test-support/schema-corpus.js';
import { grammarAccepts, xgrammar } from '../test-support/xgrammar.js';
import { toolCallText } from '../testing/calls.js';
import { validateArguments } from '../tools/validate-arguments.js';
import { CallScanner } from './call-scanner.js';
import { codecs } from './codecs.js';
import { toGbnf } from './gbnf.js';
import { buildConstraint } from './grammar.js';
import { MODEL_FAMILIES, type ToolChoice } from '../shared/tool-protocol.js';

beforeAll(() => xgrammar(), 60_000);

const CHOICES: ToolChoice[] = ['auto', 'required', { name: 'tool' }];

describe.each(MODEL_FAMILIES)('%s: a correct call to a real tool', (family) => {
  it.each(REAL_TOOL_CALLS.map((c) => [c.name, c] as const))('%s', async (_, { schema, valid }) => {
    const tools = [{ name: 'tool', description: '', parameters: schema }];
    const text = toolCallText('tool', valid, family);
    for (const choice of CHOICES) {
      const format = buildConstraint(codecs[family].format, tools, choice, 'none')!;
      expect(await grammarAccepts(format, text), `xgrammar, choice ${JSON.stringify(choice)}`).toBe(true);
      expect(await grammarAccepts({ type: 'grammar', grammar: toGbnf(format) }, text), `GBNF, choice ${JSON.stringify(choice)}`).toBe(true);
    }
    const scanner = new CallScanner(codecs[family].format);
    scanner.push(text);
    const { calls } = scanner.finish('stop');
    expect(calls.map((c) => c.name)).toEqual(['tool']);
    const { input, warnings } = jsonSchemaInput(schema);
    expect(warnings).toEqual([]);
    expect(await validateArguments(input, schema, calls[0]!.arguments)).toEqual({ ok: true, value: valid });
  }, 30_000);
});

describe.each(MODEL_FAMILIES)('%s: a key the schema does not declare (additionalProperties unset)', (family) => {
  it('the grammar and the validator refuse it alike, and the model reads where', async () => {
    const { schema } = REAL_TOOL_CALLS.find((c) => c.name.startsWith('Pydantic HTTP request'))!;
    const text = toolCallText('tool', UNDECLARED_KEY.call, family);
    // Gemma's calls are its own notation, which the grammar leaves free.
    if (family !== 'gemma4') {
      const format = buildConstraint(codecs[family].format, [{ name: 'tool', description: '', parameters: schema }], 'required', 'none')!;
      expect(await grammarAccepts(format, text)).toBe(false);
      expect(await grammarAccepts({ type: 'grammar', grammar: toGbnf(format) }, text)).toBe(false);
    }
    const scanner = new CallScanner(codecs[family].format);
    scanner.push(text);
    const [call] = scanner.finish('stop').calls;
    expect(await validateArguments(jsonSchemaInput(schema).input, schema, call!.arguments)).toEqual({ ok: false, issues: [{ path: UNDECLARED_KEY.path, message: 'unexpected field' }] });
  });
});

it("Qwen3.5: the call is written as vLLM's Qwen3-Coder parser tests read it (a string enum value bare)", () => {
  expect(toolCallText('get_current_weather', { city: 'Dallas', state: 'TX', unit: 'fahrenheit' }, 'qwen3.5')).toBe(
    '<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>',
  );
});

it("Qwen3.5: parameters without `type: 'object'` (vLLM's test tools, as OpenAI tools are often written) compile, and the call passes", async () => {
  const { schema, valid } = REAL_TOOL_CALLS.find((c) => c.name.startsWith("vLLM's Qwen3-Coder"))!;
  const { type: _, ...untyped } = schema;
  const format = buildConstraint(codecs['qwen3.5'].format, [{ name: 'tool', description: '', parameters: untyped }], 'required', 'none')!;
  const text = toolCallText('tool', valid, 'qwen3.5');
  // xgrammar 0.1.27 aborts its WebAssembly on qwen_xml_parameter without the type.
  expect(await grammarAccepts(format, text)).toBe(true);
  expect(await grammarAccepts({ type: 'grammar', grammar: toGbnf(format) }, text)).toBe(true);
});
