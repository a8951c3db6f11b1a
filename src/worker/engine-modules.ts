// Where the worker's engines come from when an app's bundler builds the worker
// from these sources: dynamic imports, which an ES module worker keeps in
// chunks of their own. The prebuilt worker (dist/script-tag) has
// engine-files.ts in this module's place (see scripts/build-package.mjs).
import type { EngineModules } from './engine.js';

export const engines: EngineModules = {
  webllm: () => import('./webllm-engine.js'),
  wllama: () => import('./wllama-engine.js'),
  fake: () => import('./fake/fake-module.js'),
};
