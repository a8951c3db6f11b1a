// WebLLM's browser cache of model files, asked about from the page: a short
// worker does it, so the page never loads WebLLM.
import { startWorker, type WorkerLauncher } from './open-worker.js';
import { WorkerConnection } from './worker-connection.js';
import { webllmSource, type WebLLMModel } from './webllm-model.js';

export interface ModelCacheOptions {
  /** Where the worker script is, as for createAgent. */
  workerUrl?: string | URL;
}

export function modelCacheWith(launch: WorkerLauncher) {
  async function run(action: 'has' | 'delete', model: string | WebLLMModel, options: ModelCacheOptions): Promise<boolean> {
    const source = webllmSource(model);
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
    isModelCached: (model: string | WebLLMModel, options: ModelCacheOptions = {}) => run('has', model, options),
    /** Delete a downloaded WebLLM model (weights, library, config), e.g. to free space or to retry a corrupt download. */
    deleteCachedModel: async (model: string | WebLLMModel, options: ModelCacheOptions = {}) => void (await run('delete', model, options)),
  };
}
