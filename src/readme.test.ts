// README's TypeScript is real code: every ```ts block in README.md is the
// shown part (between `// #region readme` and `// #endregion readme`) of an
// example in examples/readme/, in file-name order. `npm run typecheck` checks
// the examples; this file checks README shows exactly them, and runs each one
// against its fake model. `npm run docs:readme` (UPDATE_README=1) copies the
// shown parts into README.md instead of failing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readmeRun, startReadmeRun } from './test-support/readme-model.js';

const README = new URL('../README.md', import.meta.url);
const EXAMPLES = new URL('../examples/readme/', import.meta.url);
const REGION_START = '// #region readme';
const REGION_END = '// #endregion readme';
const HOW_TO_UPDATE = 'Edit the example, then run `npm run docs:readme` to copy its shown part into README.md (README\'s ts blocks come from examples/readme/).';

// Imported through vite, so `tabagent` resolves to the test shim (vitest.config.ts).
const examples = import.meta.glob('../examples/readme/*.ts');

interface Block {
  /** 1-based line of the opening fence in README.md. */
  line: number;
  /** Line indexes (0-based) of its first content line and of its closing fence. */
  from: number;
  to: number;
  text: string;
}

/** README's fenced blocks whose language is exactly `ts`, in order. */
function tsBlocks(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let open: { lang: string; at: number } | null = null;
  for (const [i, line] of lines.entries()) {
    if (!open && line.startsWith('```')) open = { lang: line.slice(3).trim(), at: i };
    else if (open && line === '```') {
      if (open.lang === 'ts') blocks.push({ line: open.at + 1, from: open.at + 1, to: i, text: lines.slice(open.at + 1, i).join('\n') });
      open = null;
    }
  }
  if (open) throw new Error(`README.md: the block opened at line ${open.at + 1} is never closed`);
  return blocks;
}

function exampleFiles(): string[] {
  return readdirSync(EXAMPLES)
    .filter((name) => name.endsWith('.ts'))
    .sort();
}

/** The shown part of an example, and the 1-based line it starts at. */
function shownPart(file: string): { text: string; line: number } {
  const lines = readFileSync(new URL(file, EXAMPLES), 'utf8').split('\n');
  const start = lines.indexOf(REGION_START);
  const end = lines.indexOf(REGION_END);
  if (start < 0 || end < start || lines.indexOf(REGION_START, start + 1) >= 0 || lines.indexOf(REGION_END, end + 1) >= 0) {
    throw new Error(`examples/readme/${file} needs exactly one line "${REGION_START}" and, after it, one line "${REGION_END}"`);
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

describe('README.md', () => {
  it('shows exactly the examples in examples/readme, one per ts block, in order', () => {
    const files = exampleFiles();
    const shown = files.map(shownPart);
    const text = readFileSync(README, 'utf8');
    const lines = text.split('\n');
    const blocks = tsBlocks(lines);
    const counts = `README.md has ${blocks.length} ts blocks and examples/readme/ has ${files.length} examples: each ts block needs an example file (NN-name.ts, numbered in README order) whose part between "${REGION_START}" and "${REGION_END}" is the block.`;
    if (process.env.UPDATE_README) {
      if (blocks.length !== files.length) throw new Error(counts);
      // Back to front, so the earlier blocks' line numbers still hold.
      const updated = [...lines];
      for (let i = blocks.length - 1; i >= 0; i--) updated.splice(blocks[i]!.from, blocks[i]!.to - blocks[i]!.from, ...shown[i]!.text.split('\n'));
      const next = updated.join('\n');
      if (next !== text) writeFileSync(README, next);
      return;
    }
    expect(blocks.length, counts).toBe(files.length);
    blocks.forEach((block, i) => {
      const { text: part, line } = shown[i]!;
      if (block.text === part) return;
      const { index, left, right } = firstDifference(block.text, part);
      expect.fail(
        `README.md's ts block ${i + 1} (README.md:${block.line}) is not the shown part of examples/readme/${files[i]}.\n` +
          `  README.md:${block.line + 1 + index}: ${left}\n  examples/readme/${files[i]}:${line + index}: ${right}\n${HOW_TO_UPDATE}`,
      );
    });
  });
});

describe('README examples, run against the fake model', () => {
  afterEach(() => {
    for (const agent of startReadmeRun().agents) agent.close();
  });

  for (const file of exampleFiles()) {
    it(file, async () => {
      const load = examples[`../examples/readme/${file}`];
      expect(load, `examples/readme/${file} is not found by import.meta.glob`).toBeDefined();
      // Resolves once the example's top-level awaits are done; rejects with whatever it threw.
      await load!();
      const { fakes } = readmeRun();
      expect(fakes.length, 'the example ran no fake model').toBeGreaterThan(0);
      for (const fake of fakes) await fake.assertComplete();
    }, 30_000);
  }
});

// A block fenced as ```ts <path> (the Playwright spec in "Testing your app")
// is a whole file that runs elsewhere (e2e/): README shows it exactly.
describe('README.md files shown whole', () => {
  it('match the files they name', () => {
    const text = readFileSync(README, 'utf8');
    for (const [, path, body] of text.matchAll(/^```ts ([\w./-]+)\n([\s\S]*?)^```$/gm)) {
      expect(body, `README.md's block for ${path} is not ${path} as it is. Copy the file into README.md.`).toBe(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'));
    }
  });
});
