// How the published package starts its worker: the prebuilt one in
// dist/script-tag, whose engines are files of their own. Each file is named in
// a `new URL(…, import.meta.url)` of its own, so bundlers (Vite, webpack 5)
// copy it into the app as it is. The app's bundler never rebuilds the worker:
// whatever its worker settings (Vite's default builds classic workers, which
// cannot split WebLLM out), a fake-model app's worker stays small, and WebLLM
// loads only for a WebLLM model. In dist/esm this module stands in for
// bundled-worker.ts, which builds from these sources keep (scripts/build-package.mjs).
import { workerAt, type WorkerLauncher } from './model/open-worker.js';

export const launchPackagedWorker: WorkerLauncher = (workerUrl, shared) => {
  if (workerUrl) return workerAt(workerUrl, shared);
  const worker = new URL('../script-tag/tabagent-worker.js', import.meta.url);
  // The engines' URLs as the app's bundler named them (read by src/worker/engine-files.ts).
  worker.hash = new URLSearchParams({
    webllm: new URL('../script-tag/webllm-engine.js', import.meta.url).href,
    wllama: new URL('../script-tag/wllama-engine.js', import.meta.url).href,
    'wllama-wasm': new URL('../script-tag/wllama.wasm', import.meta.url).href,
    fake: new URL('../script-tag/fake-engine.js', import.meta.url).href,
  }).toString();
  return workerAt(worker, shared);
};
