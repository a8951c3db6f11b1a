// Which document shows which examples. Every ```ts block of a document below
// is the shown part (between `// #region readme` and `// #endregion readme`)
// of one example in its folder, in file-name order; a block fenced
// ```ts <path> shows that whole file instead, and has no example. Read by the
// three checks of the examples (src/readme.test.ts: shown as written, run in
// Node; src/readme-blocks.test.ts: each block type-checks as pasted;
// e2e/readme-package.spec.ts: run from the packed tarball in Chromium) and by
// scripts/readme-app.mjs, which copies the folders into the app those run in.
// A guide gets examples by a row here and a folder under examples/docs/.
import { readdirSync } from 'node:fs';

/** @type {readonly { doc: string; examples: string }[]} */
export const DOC_EXAMPLES = [
  { doc: 'README.md', examples: 'examples/readme' },
  ...['engines', 'tools', 'mcp', 'runs', 'chats', 'ai-sdk', 'testing'].map((guide) => ({ doc: `docs/${guide}.md`, examples: `examples/docs/${guide}` })),
];

/** The examples of `folder` (as in DOC_EXAMPLES), in the order the document shows them. */
export function exampleFiles(root, folder) {
  return readdirSync(new URL(`${folder}/`, root))
    .filter((name) => name.endsWith('.ts'))
    .sort();
}
