// The browser's cache of model files (WebLLM's, or wllama's for a GGUF),
// asked about from the page: a short worker does it, so the page never loads
// either engine.
import { startWorker, type WorkerLauncher } from './open-worker.js';
import { WorkerConnection } from './worker-connection.js';
import { webllmSource, type WebLLMModel } from './webllm-model.js';
import { namesGguf, type GgufModel } from './gguf-name.js';
import { InvalidOptionsError } from '../errors/index.js';
import type { CachedModelSource } from '../rpc/worker-protocol.js';

export interface ModelCacheOptions {
  /** Where the worker script is, as for createAgent. */
  workerUrl?: string | URL;
}

export function modelCacheWith(launch: WorkerLauncher) {
  async function run(action: 'has' | 'delete', model: string | WebLLMModel | GgufModel, options: ModelCacheOptions): Promise<boolean> {
    const source = await cachedSource(model);
    const connection = await WorkerConnection.start(startWorker(launch, options.workerUrl), 15_000);
    try {
      return await connection.track(connection.host.modelCache(action, source));
    } finally {
      // Its one question answered: nothing is pending any more.
      connection.terminate(new DOMException('The cache query is over.', 'AbortError'));
    }
  }
  return {
    /** Whether a WebLLM model's files are already downloaded (so it loads offline). */
    isModelCached: (model: string | WebLLMModel | GgufModel, options: ModelCacheOptions = {}) => run('has', model, options),
    /** Delete a downloaded model (WebLLM's weights, library and config; a GGUF's file), e.g. to free space or to retry a corrupt download. */
    deleteCachedModel: async (model: string | WebLLMModel | GgufModel, options: ModelCacheOptions = {}) => void (await run('delete', model, options)),
  };
}

async function cachedSource(model: unknown): Promise<CachedModelSource> {
  if (!namesGguf(model)) return { kind: 'webllm', ...webllmSource(model) };
  const { url } = (await import('./gguf-model.js')).ggufSpec(model);
  if (!url) throw new InvalidOptionsError('model', 'a GGUF given as a Blob is read from the file, never downloaded or cached');
  return { kind: 'gguf', url };
}
