// How wllama runs in this worker. In a dedicated worker, as wllama means to:
// llama.cpp in a worker of its own, on as many threads as asked. In a shared
// worker (every tab's one model), where Chromium starts no worker (measured in
// Chromium 156: "Worker is not defined"), llama.cpp runs in the shared
// worker's own thread (worker/in-thread-worker.ts), so on one thread (threads
// are workers), and downloads are written with a writable stream (wllama's
// writer needs a dedicated worker's sync access handle).
import { EngineUnavailableError } from '../errors/index.js';
import { blobModulesAllowed, installInThreadWorker } from './in-thread-worker.js';

/** Whether this is a shared worker's realm. */
export function inSharedWorker(): boolean {
  return 'onconnect' in globalThis;
}

/**
 * Readies this realm for wllama, before anything is downloaded. A shared
 * worker whose policy refuses modules from blob URLs cannot run it: the
 * EngineUnavailableError sends each tab to a worker of its own.
 */
export async function prepareWllama(modelId: string): Promise<void> {
  if (!inSharedWorker()) return;
  if (!(await blobModulesAllowed())) {
    throw new EngineUnavailableError('wllama', modelId, "the shared worker's Content-Security-Policy refuses modules from blob: URLs (script-src), which wllama needs to run there");
  }
  installInThreadWorker();
}
