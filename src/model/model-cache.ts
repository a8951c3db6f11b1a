// The browser's cache of model files (WebLLM's, or wllama's for a GGUF),
// asked about from the page: a short worker does it, so the page never loads
// either engine.
import { startWorker, type WorkerLauncher } from './open-worker.js';
import { WorkerConnection } from './worker-connection.js';
import { webllmSource, type WebLLMModel } from './webllm-model.js';
import type { GgufModel } from './gguf-model.js';
import { namesGguf } from './gguf-name.js';
import { InvalidOptionsError } from '../errors/index.js';

export interface ModelCacheOptions {
  /** Where the worker script is, as for createAgent. */
  workerUrl?: string | URL;
}

export function modelCacheWith(launch: WorkerLauncher) {
  // The query loads on demand (model-cache-query.ts), given what it uses of the page entry.
  const run = async (action: 'has' | 'delete', model: string | WebLLMModel | GgufModel, options: ModelCacheOptions): Promise<boolean> =>
    (await import('./model-cache-query.js')).queryCache(action, model, options.workerUrl, { launch, startWorker, WorkerConnection, webllmSource, namesGguf, InvalidOptionsError, ggufModel: () => import('./gguf-model.js') });
  return {
    /** Whether a WebLLM model's files are already downloaded (so it loads offline). */
    isModelCached: (model: string | WebLLMModel | GgufModel, options: ModelCacheOptions = {}) => run('has', model, options),
    /** Delete a downloaded model (WebLLM's weights, library and config; a GGUF's file), e.g. to free space or to retry a corrupt download. */
    deleteCachedModel: async (model: string | WebLLMModel | GgufModel, options: ModelCacheOptions = {}) => void (await run('delete', model, options)),
  };
}
