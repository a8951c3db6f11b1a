// Whether wllama can run in this worker. wllama runs llama.cpp in a worker of
// its own (and downloads through another), started with `new Worker`; a
// SharedWorker in Chromium has no Worker constructor (measured in Chromium 156:
// "Worker is not defined"), so there it cannot run, and says so before
// anything is downloaded. The page then runs it in a worker of the tab's own.
import { EngineUnavailableError } from '../errors/index.js';

export function wllamaRefusal(modelId: string): EngineUnavailableError | undefined {
  if (typeof Worker !== 'undefined' || !('onconnect' in globalThis)) return undefined;
  return new EngineUnavailableError('wllama', modelId, 'wllama runs llama.cpp in workers of its own, and this browser starts no worker inside a shared worker');
}
