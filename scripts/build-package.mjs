// Builds the package: `npm run build` (and `npm pack`, through prepack).
//   dist/esm/           ES modules and type declarations (tsc): `tabagent`, `tabagent/testing`
//   dist/script-tag/    built by Vite:
//     tabagent-worker.js   the model worker, an ES module that imports nothing of its own
//     webllm-engine.js     WebLLM, which the worker imports only for a WebLLM model
//     wllama-engine.js     wllama (llama.cpp in WebAssembly), only for a GGUF model,
//     wllama.wasm          with its WebAssembly build
//     fake-engine.js       the fake engine with xgrammar, only for a fake model
//     tabagent.js          one classic script defining the global `TabAgent`
//     tabagent-testing.js  the fake model and helpers, as the global `TabAgentTesting`
// The worker and its engines are each one self-contained file: apps' bundlers
// copy them as they are (src/packaged-worker.ts), and so do CDNs.
// `node scripts/build-package.mjs script-tag` builds only dist/script-tag.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { xgrammarNodeStubs } from './vite-xgrammar-stubs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

if (process.argv[2] !== 'script-tag') {
  rmSync(at('dist/esm'), { recursive: true, force: true });
  execFileSync(at('node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  // The package starts the prebuilt worker; builds from the sources keep bundled-worker.ts.
  writeFileSync(
    at('dist/esm/bundled-worker.js'),
    "// The published package starts the prebuilt worker (src/packaged-worker.ts); written by scripts/build-package.mjs.\nexport { launchPackagedWorker as launchBundledWorker } from './packaged-worker.js';\n",
  );
  rmSync(at('dist/esm/bundled-worker.js.map'), { force: true });
  // The MCP client, prebuilt into the module that re-exports it (src/sources/mcp/sdk.ts):
  // the SDK is no dependency of the package. zod stays the app's own.
  await build({
    configFile: false,
    root,
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir: 'dist/esm/sources/mcp',
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      lib: { entry: 'src/sources/mcp/sdk.ts', formats: ['es'], fileName: () => 'sdk.js' },
      rolldownOptions: { external: (id) => id === 'zod' || id.startsWith('zod/'), output: { codeSplitting: false } },
    },
  });
  rmSync(at('dist/esm/sources/mcp/sdk.js.map'), { force: true });
}

rmSync(at('dist/script-tag'), { recursive: true, force: true });
/** One self-contained file in dist/script-tag (source maps carry their sources). */
const bundle = (entry, fileName, options = {}) =>
  build({
    configFile: false,
    root,
    publicDir: false,
    logLevel: 'warn',
    plugins: [xgrammarNodeStubs()],
    resolve: options.resolve,
    build: {
      outDir: 'dist/script-tag',
      emptyOutDir: false,
      target: 'es2022',
      sourcemap: true,
      minify: true,
      lib: { entry, formats: [options.name ? 'iife' : 'es'], name: options.name, fileName: () => fileName },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });

// The worker loads its engines as the files beside it, not as chunks of its own.
await bundle('src/worker/worker.ts', 'tabagent-worker.js', {
  resolve: { alias: [{ find: /^\.\/engine-modules\.js$/, replacement: at('src/worker/engine-files.ts') }] },
});
await bundle('src/worker/webllm-engine.ts', 'webllm-engine.js');
// wllama's WebAssembly is a file beside its engine (Vite's library mode would inline it as base64).
await bundle('src/worker/wllama-engine.ts', 'wllama-engine.js', {
  resolve: { alias: [{ find: /^\.\/wllama-wasm\.js$/, replacement: at('src/worker/wllama-wasm-file.ts') }] },
});
copyFileSync(at('node_modules/@wllama/wllama/esm/wasm/wllama.wasm'), at('dist/script-tag/wllama.wasm'));
await bundle('src/worker/fake/fake-module.ts', 'fake-engine.js');
await bundle('src/script-tag-testing.ts', 'tabagent-testing.js', { name: 'TabAgentTesting' });
await bundle('src/script-tag.ts', 'tabagent.js', { name: 'TabAgent' });

// Source maps map tabagent's own code, with its text; the bundled libraries'
// code (WebLLM's, xgrammar's, wllama's, zod's: 11 MB of text) is left
// unmapped. A user debugging tabagent steps through ours and reads theirs in
// their own repositories; and a map naming sources it does not carry makes
// Vite's dev server warn about every such file.
for (const name of readdirSync(at('dist/script-tag')).filter((f) => f.endsWith('.map'))) {
  const file = at(`dist/script-tag/${name}`);
  const map = JSON.parse(readFileSync(file, 'utf8'));
  const kept = map.sources.flatMap((source, i) => (source.includes('node_modules/') ? [] : [i]));
  const index = new Map(kept.map((old, i) => [old, i]));
  const lines = decode(map.mappings).map((line) => line.flatMap((segment) => (segment.length === 1 || !index.has(segment[1]) ? [] : [[segment[0], index.get(segment[1]), ...segment.slice(2)]])));
  map.sources = kept.map((i) => map.sources[i]);
  map.sourcesContent = kept.map((i) => map.sourcesContent?.[i] ?? null);
  map.mappings = encode(lines);
  delete map.ignoreList;
  writeFileSync(file, JSON.stringify(map));
}

// Neither engine may end up in the worker itself: it would load with every model.
const worker = readFileSync(at('dist/script-tag/tabagent-worker.js'), 'utf8');
for (const marker of ['MLCEngine', 'GrammarMatcher', 'wllamaStart']) {
  if (worker.includes(marker)) throw new Error(`dist/script-tag/tabagent-worker.js contains ${marker}: an engine was bundled into the worker`);
}

// The AI SDK is a peer of tabagent/ai-sdk only: no other module of the package
// may import it (an app that does not use that entry installs and loads none of it).
if (process.argv[2] !== 'script-tag') {
  const { readdirSync } = await import('node:fs');
  const aiSdk = /(?:from|import\()\s*['"](?:ai|@ai-sdk\/[^'"]+)['"]/;
  for (const file of readdirSync(at('dist/esm'), { recursive: true })) {
    if (!/\.(js|d\.ts)$/.test(file) || file.startsWith(`ai-sdk/`)) continue;
    if (aiSdk.test(readFileSync(at(`dist/esm/${file}`), 'utf8'))) throw new Error(`dist/esm/${file} imports the AI SDK: only dist/esm/ai-sdk/ may`);
  }
}
for (const file of ['tabagent.js', 'tabagent-testing.js', 'tabagent-worker.js']) {
  if (readFileSync(at(`dist/script-tag/${file}`), 'utf8').includes('TabAgentChatTransport')) throw new Error(`dist/script-tag/${file} contains tabagent/ai-sdk`);
}
