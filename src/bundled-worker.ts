// How an app built from these sources (the demo, the e2e harness, the PWA)
// starts its worker: the literal `new Worker(new URL(…, import.meta.url))`
// form (and `new SharedWorker(…)` for a shared one), which bundlers
// recognise and build as a worker of their own (an ES module worker splits
// WebLLM out). The published package uses the prebuilt worker instead
// (packaged-worker.ts).
import { workerAt, type WorkerLauncher } from './model/open-worker.js';

export const launchBundledWorker: WorkerLauncher = (workerUrl, shared) => {
  if (workerUrl) return workerAt(workerUrl, shared);
  if (shared) return new SharedWorker(new URL('./worker/worker.js', import.meta.url), { type: 'module', name: shared.name });
  return new Worker(new URL('./worker/worker.js', import.meta.url), { type: 'module', name: 'tabagent' });
};
