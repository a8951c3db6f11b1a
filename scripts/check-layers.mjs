// The layering, checked from the imports alone: every import between src/'s
// folders must point down this list (a folder may import itself and any
// folder below it), and no files import each other in a circle. `npm test`
// runs this; docs/architecture.md explains it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'vite';

/** Bottom first. A folder (a room) imports itself and the layers below: never a layer above, nor a sibling in its own layer. */
export const LAYERS = [
  ['shared'],
  ['errors'],
  ['protocol', 'tools', 'webllm'],
  ['rpc'],
  // The page's side of the model, the store, the worker, and the call pipeline (it needs none of the other three).
  ['model', 'store', 'worker', 'calls'],
  // Tools from elsewhere: MCP, WebMCP both ways (offering a chat's tools runs calls through calls/), a chat as a tool.
  ['sources'],
  // One run of a chat; the chat that starts runs; the agent that opens chats.
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

/**
 * The circles of files allowed, each by the one edge that closes it, from →
 * to (paths under src/). Only a dynamic import may be one (import(), or a
 * type's `typeof import()`): a module that loads its own implementation on
 * demand, where naming that implementation is the point.
 */
export const ALLOWED_CYCLES = [
  // The engine loaders: worker/engine.ts types what engine-modules.ts and
  // engine-files.ts load (each engine, `typeof import()`), and each engine
  // implements engine.ts's Engine.
  ['worker/engine.ts', 'worker/webllm-engine.ts'],
  ['worker/engine.ts', 'worker/wllama-engine.ts'],
  ['worker/engine.ts', 'worker/fake/fake-module.ts'],
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

/** Every `typeof import('…')` (and `import('…').Name`) in a type, by its module request. */
function typeImports(node, found = []) {
  if (Array.isArray(node)) for (const child of node) typeImports(child, found);
  else if (node && typeof node === 'object') {
    if (node.type === 'TSImportType' && typeof node.source?.value === 'string') found.push(node.source.value);
    for (const key in node) if (key !== 'parent') typeImports(node[key], found);
  }
  return found;
}

/** Every relative module a file imports or re-exports: statically (types too), or dynamically with import() (in code, or a type's `typeof import()`). */
function importsOf(file) {
  const code = readFileSync(file, 'utf8');
  const { program, module, errors } = parseSync(file, code);
  if (errors.length) throw new Error(`${file}: ${errors[0].message}`);
  const found = new Map();
  const add = (request, dynamic) => {
    if (!request?.startsWith('.')) return;
    const target = resolve(dirname(file), request).replace(/\.js$/, '.ts');
    found.set(target, (found.get(target) ?? true) && dynamic);
  };
  for (const i of module.staticImports) add(i.moduleRequest.value, false);
  for (const e of module.staticExports) for (const x of e.entries) add(x.moduleRequest?.value, false);
  for (const i of module.dynamicImports) add(code.slice(i.moduleRequest.start, i.moduleRequest.end).replace(/^['"`]|['"`]$/g, ''), true);
  for (const request of typeImports(program)) add(request, true);
  /** target → whether every import of it is dynamic. */
  return found;
}

/** The imports that point up, as "from → to" lines. Tests are leaves: they may import anything. */
export function violations(root = SRC) {
  const found = [];
  for (const file of modules(root)) {
    if (/\.test\.ts$/.test(file)) continue;
    const from = folderOf(root, file);
    for (const target of importsOf(file).keys()) {
      if (!target.startsWith(root + sep)) continue;
      const to = folderOf(root, target);
      if (to !== from && rankOf(to) >= rankOf(from)) found.push(`src/${relative(root, file)} → src/${relative(root, target)} (${from} may not import ${to})`);
    }
  }
  return found.sort();
}

/**
 * The circles of files, one line each ("src/a.ts → src/b.ts → src/a.ts":
 * the shortest through the first file of each knot), and allowed edges that
 * are no dynamic import. Tests are leaves, in no circle.
 */
export function cycles(root = SRC, allowed = ALLOWED_CYCLES) {
  const name = (file) => relative(root, file).split(sep).join('/');
  const graph = new Map();
  for (const file of modules(root)) {
    if (/\.test\.ts$/.test(file)) continue;
    graph.set(name(file), [...importsOf(file)].filter(([target]) => target.startsWith(root + sep)).map(([target, dynamic]) => ({ to: name(target), dynamic })));
  }
  const found = [];
  for (const [from, to] of allowed) {
    const edge = graph.get(from)?.find((e) => e.to === to);
    if (!edge?.dynamic) found.push(`allowed, but no dynamic import: src/${from} → src/${to}`);
    else graph.set(from, graph.get(from).filter((e) => e !== edge));
  }
  for (const knot of knots(graph)) {
    const start = knot.sort()[0];
    found.push(shortestCircle(graph, start, new Set(knot)).map((f) => `src/${f}`).join(' → '));
  }
  return found.sort();
}

/** The strongly connected parts of the graph with more than one file, or a file that imports itself (Tarjan). */
function knots(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const { to: w } of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const knot = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      knot.push(w);
    } while (w !== v);
    if (knot.length > 1 || graph.get(v).some((e) => e.to === v)) found.push(knot);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The shortest way from `start` back to it, within `knot`. */
function shortestCircle(graph, start, knot) {
  const previous = new Map();
  const queue = [start];
  while (queue.length) {
    const at = queue.shift();
    for (const { to } of graph.get(at)) {
      if (!knot.has(to)) continue;
      if (to === start) {
        const path = [at];
        while (path[0] !== start) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, at);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const up = violations();
  const circles = cycles();
  if (up.length) console.error(`Imports that point up the layers (see docs/architecture.md):\n${up.map((l) => `  ${l}`).join('\n')}`);
  if (circles.length) console.error(`Files that import each other in a circle (see docs/architecture.md):\n${circles.map((l) => `  ${l}`).join('\n')}`);
  if (up.length || circles.length) process.exit(1);
  console.log('layers: every import points down, and no files import each other in a circle');
}
