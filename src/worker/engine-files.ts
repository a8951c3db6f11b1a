// The prebuilt worker's engines (dist/script-tag; scripts/build-package.mjs
// puts this module in place of engine-modules.ts). Each engine is a
// self-contained file beside the worker, imported by URL. An app's bundler
// copies the worker and its engines as they are (packaged-worker.ts) but
// renames them, so the page passes the engines' URLs in the hash of the
// worker's URL; without them (the script tag, a self-hosted worker) they are
// the files next to the worker.
import type { EngineModules } from './engine.js';

const given = new URLSearchParams(new URL(import.meta.url).hash.slice(1));

function engineAt(name: 'webllm' | 'wllama' | 'fake', file: string): string {
  return given.get(name) ?? new URL(file, import.meta.url).href;
}

export const engines: EngineModules = {
  webllm: () => import(/* @vite-ignore */ engineAt('webllm', './webllm-engine.js')),
  wllama: () => import(/* @vite-ignore */ engineAt('wllama', './wllama-engine.js')),
  fake: () => import(/* @vite-ignore */ engineAt('fake', './fake-engine.js')),
};
