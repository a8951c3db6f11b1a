// The script-tag distribution, in dist/script-tag/:
//   tabagent.js          one classic script defining the global `TabAgent`
//   tabagent-testing.js  the fake model and helpers, as the global `TabAgentTesting`
//   tabagent-worker.js   the model worker (an ES module), found next to it
//   webllm-engine-*.js   WebLLM, loaded by the worker only for WebLLM models
//   fake-engine-*.js     the fake engine and xgrammar, only for fake models
// Three builds (a classic script cannot be split, a worker must be): run with
// TABAGENT_PART=worker first, then testing, then without.
import { defineConfig } from 'vite';

const part = process.env.TABAGENT_PART;
const worker = part === 'worker';

export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist/script-tag',
    emptyOutDir: worker,
    target: 'es2022',
    sourcemap: true,
    minify: true,
    lib: worker
      ? { entry: 'src/worker/worker.ts', formats: ['es'], fileName: () => 'tabagent-worker.js' }
      : part === 'testing'
        ? { entry: 'src/script-tag-testing.ts', formats: ['iife'], name: 'TabAgentTesting', fileName: () => 'tabagent-testing.js' }
        : { entry: 'src/script-tag.ts', formats: ['iife'], name: 'TabAgent', fileName: () => 'tabagent.js' },
  },
});
