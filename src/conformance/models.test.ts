// Every chat model the installed WebLLM ships calls tools: each id through
// every check of the conformance run, against the strict fake with that
// model's template, grammar and context window. The table it makes is
// docs/models.md; this test fails when a row fails, when WebLLM adds an id
// the model table does not know, or when the committed table is stale
// (`npm run docs:models` writes it anew).
import { readFile, writeFile } from 'node:fs/promises';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { CHECKS, conform, type Conformance } from './model-conformance.js';
import { modelsMarkdown } from './models-markdown.js';

const DOC = new URL('../../docs/models.md', import.meta.url);
const SOURCES = new URL('../../docs/model-template-sources.json', import.meta.url);

/** Chat models: everything but the embedding models (model_type 1). */
const chatModels = prebuiltAppConfig.model_list.filter((m) => m.model_type !== 1);

/** One line per base model: its ids, family, template, and each check across them. */
function summary(table: readonly Conformance[]): string {
  const bases = new Map<string, Conformance[]>();
  for (const row of table) bases.set(row.entry.base, [...(bases.get(row.entry.base) ?? []), row]);
  const width = Math.max(...[...bases.keys()].map((b) => b.length));
  return [...bases]
    .map(([base, rows]) => {
      const { family, native, template } = rows[0]!.entry;
      const checks = CHECKS.map((c) => `${c} ${rows.every((r) => r.results[c] === true) ? 'ok' : 'FAIL'}`).join(', ');
      return `  ${base.padEnd(width)}  ${String(rows.length).padStart(2)} id(s)  ${`${family}${native ? '' : ' (prompted)'}`.padEnd(20)} ${template.padEnd(22)} ${checks}`;
    })
    .join('\n');
}

describe('every WebLLM chat model calls tools', () => {
  let table: Conformance[] = [];

  it(`runs the conformance checks for all ${chatModels.length} prebuilt chat model ids`, async () => {
    table = [];
    for (const record of chatModels) table.push(await conform(record.model_id, record.overrides?.context_window_size ?? 4096));
    const failures = table.flatMap((row) => CHECKS.filter((c) => row.results[c] !== true).map((c) => `${row.modelId} ${c}: ${row.results[c]}`));
    const unknown = table.filter((row) => !row.entry.known).map((row) => row.modelId);
    const counts = new Map<string, number>();
    for (const row of table) counts.set(`${row.entry.family}${row.entry.native ? '' : ' (prompted)'}`, (counts.get(`${row.entry.family}${row.entry.native ? '' : ' (prompted)'}`) ?? 0) + 1);
    const families = [...counts].map(([family, n]) => `${family}: ${n}`);
    console.log(
      [
        `Conformance: ${table.length} model ids, ${table.length * CHECKS.length - failures.length} of ${table.length * CHECKS.length} checks pass (${families.join(', ')}); every id in docs/models.md`,
        summary(table),
      ].join('\n'),
    );
    expect(unknown, 'model ids the table does not know (add them to src/protocol/model-table.ts)').toEqual([]);
    expect(failures).toEqual([]);
  }, 300_000);

  it('the checks can fail: a context window too small for the tool declarations', async () => {
    const { results } = await conform('Llama-3.1-8B-Instruct-q4f16_1-MLC-1k', 200);
    expect(results.managed).toMatch(/^ContextOverflowError: .*context window of 200/);
  });

  // The calls are scripted from the model's own chat template (template-oracle.ts), so
  // a wrong entry in the model table shows: the run must fail, not pass on our own codec.
  const LLAMA = 'Llama-3.2-1B-Instruct-q4f16_1-MLC';

  it('the checks can fail: Llama 3.2 taken for a Mistral model (its own template writes Llama JSON calls)', async () => {
    const { results, oracle } = await conform(LLAMA, 4096, { family: 'mistral' });
    expect(oracle?.origin).toMatch(/^@lenml\/tokenizer-llama3_2@/);
    expect(results.raw).toMatch(/the raw call comes back: \[\]/);
    expect(results.required).toMatch(/^FakeGrammarError: /);
    expect(results.named).toMatch(/^FakeGrammarError: /);
  });

  it('the checks can fail: Llama 3.2 with a template that has no tool role (results not given as its own template gives them)', async () => {
    const { results } = await conform(LLAMA, 4096, { family: 'llama', template: 'llama-3' });
    expect(results.managed).toMatch(/the tool result is given as the model's own template gives it: "<\|start_header_id\|>ipython/);
  });

  it('docs/models.md is the table this run makes', async () => {
    const sources = JSON.parse(await readFile(SOURCES, 'utf8')) as Record<string, { template: string; confidence: string; source: string }>;
    const markdown = modelsMarkdown(table, sources);
    if (process.env.UPDATE_MODEL_TABLE) await writeFile(DOC, markdown);
    expect(await readFile(DOC, 'utf8').catch(() => ''), 'docs/models.md is stale: run npm run docs:models').toBe(markdown);
  });
});
