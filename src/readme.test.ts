// The documents' TypeScript is real code: every ```ts block of README.md and
// of each guide in docs/ is the shown part (between `// #region readme` and
// `// #endregion readme`) of an example in the document's folder, in
// file-name order (scripts/doc-examples.mjs says which folder is whose).
// `npm run typecheck` checks the examples; this file checks each document
// shows exactly them, and runs each one against its fake model.
// `npm run docs:examples` (UPDATE_DOCS=1) copies the shown parts into the
// documents instead of failing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DOC_EXAMPLES, exampleFiles } from '../scripts/doc-examples.mjs';
import { readmeRun, startReadmeRun } from './test-support/readme-model.js';

const ROOT = new URL('../', import.meta.url);
const REGION_START = '// #region readme';
const REGION_END = '// #endregion readme';
const HOW_TO_UPDATE = "Edit the example, then run `npm run docs:examples` to copy its shown part into the document (a document's ts blocks come from its folder in scripts/doc-examples.mjs).";

// Imported through vite, so `tabagent` resolves to the test shim (vitest.config.ts).
const examples = import.meta.glob(['../examples/readme/*.ts', '../examples/docs/*/*.ts']);

interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  /** Line indexes (0-based) of its first content line and of its closing fence. */
  from: number;
  to: number;
  text: string;
}

/** A document's fenced blocks whose language is exactly `ts`, in order. */
function tsBlocks(doc: string, lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let open: { lang: string; at: number } | null = null;
  for (const [i, line] of lines.entries()) {
    if (!open && line.startsWith('```')) open = { lang: line.slice(3).trim(), at: i };
    else if (open && line === '```') {
      if (open.lang === 'ts') blocks.push({ line: open.at + 1, from: open.at + 1, to: i, text: lines.slice(open.at + 1, i).join('\n') });
      open = null;
    }
  }
  if (open) throw new Error(`${doc}: the block opened at line ${open.at + 1} is never closed`);
  return blocks;
}

/** The shown part of an example, and the 1-based line it starts at. */
function shownPart(path: string): { text: string; line: number } {
  const lines = readFileSync(new URL(path, ROOT), 'utf8').split('\n');
  const start = lines.indexOf(REGION_START);
  const end = lines.indexOf(REGION_END);
  if (start < 0 || end < start || lines.indexOf(REGION_START, start + 1) >= 0 || lines.indexOf(REGION_END, end + 1) >= 0) {
    throw new Error(`${path} needs exactly one line "${REGION_START}" and, after it, one line "${REGION_END}"`);
  }
  return { text: lines.slice(start + 1, end).join('\n'), line: start + 2 };
}

function firstDifference(a: string, b: string): { index: number; left: string; right: string } {
  const left = a.split('\n');
  const right = b.split('\n');
  let index = 0;
  while (index < Math.max(left.length, right.length) && left[index] === right[index]) index++;
  return { index, left: left[index] ?? '(nothing)', right: right[index] ?? '(nothing)' };
}

/** README.md and every guide in docs/. */
function documents(): string[] {
  const guides = readdirSync(new URL('docs/', ROOT)).filter((name) => name.endsWith('.md'));
  return ['README.md', ...guides.sort().map((name) => `docs/${name}`)];
}

describe('the table of documents and their examples', () => {
  it('has a row for every folder of examples, and for every document with a ts block', () => {
    const listed = DOC_EXAMPLES.map((row) => row.examples);
    const folders = [...new Set(Object.keys(examples).map((key) => key.slice('../'.length, key.lastIndexOf('/'))))];
    expect(folders.filter((folder) => !listed.includes(folder)), 'folders of examples no document in scripts/doc-examples.mjs shows').toEqual([]);
    const withBlocks = documents().filter((doc) => tsBlocks(doc, readFileSync(new URL(doc, ROOT), 'utf8').split('\n')).length > 0);
    expect(withBlocks.filter((doc) => !DOC_EXAMPLES.some((row) => row.doc === doc)), 'documents with ts blocks and no row in scripts/doc-examples.mjs').toEqual([]);
  });
});

for (const { doc, examples: folder } of DOC_EXAMPLES) {
  describe(doc, () => {
    it(`shows exactly the examples in ${folder}/, one per ts block, in order`, () => {
      const files = exampleFiles(ROOT, folder);
      const shown = files.map((file) => shownPart(`${folder}/${file}`));
      const url = new URL(doc, ROOT);
      const text = readFileSync(url, 'utf8');
      const lines = text.split('\n');
      const blocks = tsBlocks(doc, lines);
      const counts = `${doc} has ${blocks.length} ts blocks and ${folder}/ has ${files.length} examples: each ts block needs an example file (NN-name.ts, numbered in the document's order) whose part between "${REGION_START}" and "${REGION_END}" is the block.`;
      if (process.env.UPDATE_DOCS) {
        if (blocks.length !== files.length) throw new Error(counts);
        // Back to front, so the earlier blocks' line numbers still hold.
        const updated = [...lines];
        for (let i = blocks.length - 1; i >= 0; i--) updated.splice(blocks[i]!.from, blocks[i]!.to - blocks[i]!.from, ...shown[i]!.text.split('\n'));
        const next = updated.join('\n');
        if (next !== text) writeFileSync(url, next);
        return;
      }
      expect(blocks.length, counts).toBe(files.length);
      blocks.forEach((block, i) => {
        const { text: part, line } = shown[i]!;
        if (block.text === part) return;
        const { index, left, right } = firstDifference(block.text, part);
        expect.fail(
          `${doc}'s ts block ${i + 1} (${doc}:${block.line}) is not the shown part of ${folder}/${files[i]}.\n` +
            `  ${doc}:${block.line + 1 + index}: ${left}\n  ${folder}/${files[i]}:${line + index}: ${right}\n${HOW_TO_UPDATE}`,
        );
      });
    });
  });
}

describe('the examples, run against the fake model', () => {
  afterEach(() => {
    for (const agent of startReadmeRun().agents) agent.close();
  });

  for (const { examples: folder } of DOC_EXAMPLES) {
    for (const file of exampleFiles(ROOT, folder)) {
      it(`${folder}/${file}`, async () => {
        const load = examples[`../${folder}/${file}`];
        expect(load, `${folder}/${file} is not found by import.meta.glob`).toBeDefined();
        // Resolves once the example's top-level awaits are done; rejects with whatever it threw.
        await load!();
        const { fakes } = readmeRun();
        expect(fakes.length, 'the example ran no fake model').toBeGreaterThan(0);
        for (const fake of fakes) await fake.assertComplete();
      }, 30_000);
    }
  }
});

// A block fenced as ```ts <path> (the Playwright spec in docs/testing.md) is a
// whole file that runs elsewhere (e2e/): the document shows it exactly.
describe('files shown whole', () => {
  it('match the files they name', () => {
    for (const doc of documents()) {
      for (const [, path, body] of readFileSync(new URL(doc, ROOT), 'utf8').matchAll(/^```ts ([\w./-]+)\n([\s\S]*?)^```$/gm)) {
        expect(body, `${doc}'s block for ${path} is not ${path} as it is. Copy the file into ${doc}.`).toBe(readFileSync(new URL(path!, ROOT), 'utf8'));
      }
    }
  });
});
