// The documents' TypeScript as a reader pastes it: every ```ts block of
// README.md and of each guide (scripts/doc-examples.mjs lists them), on its
// own, type-checks against the package, or says in its first line that it is
// part of an example of its document (`// Part of examples/…/NN-name.ts: …`)
// whose whole file type-checks (`npm run typecheck`) and runs
// (src/readme.test.ts). A block that compiles alone carries no such line.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DOC_EXAMPLES } from '../scripts/doc-examples.mjs';

const ROOT = new URL('..', import.meta.url);
/** Inside the repository, so the blocks resolve zod and the package's types as an app would. */
const DIR = new URL('node_modules/.cache/readme-blocks/', ROOT);
const FRAGMENT = /^\/\/ Part of (examples\/[\w./-]+\.ts)\b/;

interface Block {
  doc: string;
  /** Where the document's examples are. */
  folder: string;
  /** 1-based line of the opening fence. */
  line: number;
  text: string;
}

function tsBlocks(doc: string, folder: string): Block[] {
  const blocks: Block[] = [];
  let open: { lang: string; at: number; lines: string[] } | null = null;
  for (const [i, line] of readFileSync(new URL(doc, ROOT), 'utf8').split('\n').entries()) {
    if (!open && line.startsWith('```')) open = { lang: line.slice(3).trim(), at: i + 1, lines: [] };
    else if (open && line === '```') {
      if (open.lang === 'ts') blocks.push({ doc, folder, line: open.at, text: open.lines.join('\n') });
      open = null;
    } else open?.lines.push(line);
  }
  return blocks;
}

/** Each block as a module of its own, checked in one tsc run: the errors of each, by block. */
async function compileAlone(blocks: Block[]): Promise<string[][]> {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const files = blocks.map((_, i) => `block-${String(i + 1).padStart(3, '0')}.ts`);
  blocks.forEach((block, i) => writeFileSync(new URL(files[i]!, DIR), `${block.text}\nexport {};\n`));
  // The project's own settings (strict, the package's name mapped to its sources), with nothing but the blocks.
  writeFileSync(new URL('tsconfig.json', DIR), JSON.stringify({ extends: '../../../tsconfig.json', compilerOptions: { noEmit: true, types: ['vite/client'], noUnusedLocals: false }, include: files }));
  const tsc = new URL('node_modules/.bin/tsc', ROOT).pathname;
  const output = await promisify(execFile)(tsc, ['-p', new URL('tsconfig.json', DIR).pathname, '--pretty', 'false']).then(
    (r) => r.stdout,
    (e: { stdout?: string }) => e.stdout ?? String(e),
  );
  return files.map((file) => output.split('\n').filter((l) => l.includes(file)).map((l) => l.slice(l.indexOf(file))));
}

describe("the documents' ts blocks", () => {
  it('each type-checks alone, or says which whole example of its document it is part of', async () => {
    const blocks = DOC_EXAMPLES.flatMap(({ doc, examples }) => tsBlocks(doc, examples));
    expect(blocks.length).toBeGreaterThan(10);
    const errors = await compileAlone(blocks);
    const problems: string[] = [];
    blocks.forEach((block, i) => {
      const where = `${block.doc}:${block.line}`;
      const part = FRAGMENT.exec(block.text)?.[1];
      if (part) {
        if (errors[i]!.length === 0) problems.push(`${where}: compiles alone; drop its "// Part of" line`);
        else if (!part.startsWith(`${block.folder}/`)) problems.push(`${where}: says it is part of ${part}, which is not one of ${block.doc}'s examples (${block.folder}/)`);
        else if (!readFileSync(new URL(part, ROOT), 'utf8').includes(block.text)) problems.push(`${where}: says it is part of ${part}, which does not hold it`);
      } else if (errors[i]!.length) problems.push(`${where}: does not compile alone, and does not say which example it is part of:\n    ${errors[i]!.join('\n    ')}`);
    });
    expect(problems, problems.join('\n')).toEqual([]);
  }, 120_000);
});
