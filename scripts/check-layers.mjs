// The layering, checked from the imports alone: every import between src/'s
// folders must point down this list (a folder may import itself and any
// folder below it). `npm test` runs this; docs/architecture.md explains it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'vite';

/** Bottom first. A folder imports itself and the layers below it: never a layer above, nor a sibling in its own layer. */
export const LAYERS = [
  ['shared'],
  ['errors'],
  ['protocol', 'tools', 'webllm'],
  ['rpc'],
  ['model', 'store', 'worker', 'calls'],
  ['sources'],
  ['run'],
  ['chat'],
  ['agent'],
  ['testing'],
  ['entries'],
  // tabagent/ai-sdk: an entry of its own, above the package's (it starts models with the package's worker).
  ['ai-sdk'],
  ['test-support'],
  ['conformance'],
];

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** The folder a module belongs to: its first folder under src/, or "entries" for src/*.ts. */
function folderOf(root, file) {
  const parts = relative(root, file).split(/[\\/]/);
  return parts.length === 1 ? 'entries' : parts[0];
}

function rankOf(folder) {
  const rank = LAYERS.findIndex((layer) => layer.includes(folder));
  if (rank < 0) throw new Error(`src/${folder} is in no layer: add it to LAYERS in scripts/check-layers.mjs`);
  return rank;
}

function* modules(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* modules(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** Every relative module a file imports or re-exports, statically or with import(). */
function importsOf(file) {
  const code = readFileSync(file, 'utf8');
  const { module, errors } = parseSync(file, code);
  if (errors.length) throw new Error(`${file}: ${errors[0].message}`);
  const requests = [
    ...module.staticImports.map((i) => i.moduleRequest.value),
    ...module.staticExports.flatMap((e) => e.entries.map((x) => x.moduleRequest?.value)),
    ...module.dynamicImports.map((i) => code.slice(i.moduleRequest.start, i.moduleRequest.end).replace(/^['"`]|['"`]$/g, '')),
  ];
  return [...new Set(requests.filter((r) => r?.startsWith('.')))].map((r) => resolve(dirname(file), r).replace(/\.js$/, '.ts'));
}

/** The imports that point up, as "from → to" lines. Tests are leaves: they may import anything. */
export function violations(root = SRC) {
  const found = [];
  for (const file of modules(root)) {
    if (/\.test\.ts$/.test(file)) continue;
    const from = folderOf(root, file);
    for (const target of importsOf(file)) {
      if (!target.startsWith(root + sep)) continue;
      const to = folderOf(root, target);
      if (to !== from && rankOf(to) >= rankOf(from)) found.push(`src/${relative(root, file)} → src/${relative(root, target)} (${from} may not import ${to})`);
    }
  }
  return found.sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = violations();
  if (found.length) {
    console.error(`Imports that point up the layers (see docs/architecture.md):\n${found.map((l) => `  ${l}`).join('\n')}`);
    process.exit(1);
  }
  console.log('layers: every import points down');
}
