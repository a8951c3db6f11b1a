// WebLLM's browser cache of model files, asked about from the page: a short
// worker does it, so the page never loads WebLLM.
import { InvalidOptionsError } from '../errors/index.js';
import type { WebLLMSource } from '../rpc/worker-protocol.js';
import { startWorker, type WorkerLauncher } from './open-worker.js';
import { WorkerConnection } from './worker-connection.js';

export interface ModelCacheOptions {
  /** Where the worker script is, as for createAgent. */
  workerUrl?: string | URL;
}

/** A WebLLM model id, or a self-hosted model `{ id, appConfig | modelUrl, modelLib }`. */
export type ModelRef = string | (Omit<WebLLMSource, 'modelId'> & { id: string });

export function modelCacheWith(launch: WorkerLauncher) {
  async function run(action: 'has' | 'delete', model: ModelRef, options: ModelCacheOptions): Promise<boolean> {
    const source = sourceOf(model);
    const connection = await WorkerConnection.start(startWorker(launch, options.workerUrl), 15_000);
    try {
      return await connection.track(connection.host.modelCache(action, source));
    } finally {
      connection.terminate();
    }
  }
  return {
    /** Whether a WebLLM model's files are already downloaded (so it loads offline). */
    isModelCached: (model: ModelRef, options: ModelCacheOptions = {}) => run('has', model, options),
    /** Delete a downloaded WebLLM model (weights, library, config), e.g. to free space or to retry a corrupt download. */
    deleteCachedModel: async (model: ModelRef, options: ModelCacheOptions = {}) => void (await run('delete', model, options)),
  };
}

function sourceOf(model: ModelRef): WebLLMSource {
  if (typeof model === 'string' && model.trim()) return { modelId: model };
  if (typeof model === 'object' && model !== null && typeof model.id === 'string') {
    const { id, ...rest } = model;
    return { modelId: id, ...rest };
  }
  throw new InvalidOptionsError('model', 'must be a WebLLM model id or { id, appConfig | modelUrl }');
}
