// One question to the browser's cache of model files (model-cache.ts), asked
// through a short worker. Loaded on demand: most apps never ask. What it uses
// of the page entry is passed in, since a chunk that imported it would split
// it out of the entry (a bigger entry).
import type { InvalidOptionsError } from '../errors/index.js';
import type { CachedModelSource } from '../rpc/worker-protocol.js';
import type { GgufModel } from './gguf-model.js';
import type { namesGguf } from './gguf-name.js';
import type { startWorker, WorkerLauncher } from './open-worker.js';
import type { WorkerConnection } from './worker-connection.js';
import type { webllmSource, WebLLMModel } from './webllm-model.js';

/** What this module takes from the page entry. */
export interface CacheQueryParts {
  launch: WorkerLauncher;
  startWorker: typeof startWorker;
  WorkerConnection: typeof WorkerConnection;
  webllmSource: typeof webllmSource;
  namesGguf: typeof namesGguf;
  InvalidOptionsError: typeof InvalidOptionsError;
  /** gguf-model.ts, loaded by the entry's own import(): one here would split the bundler's preload helper out of the entry. */
  ggufModel: () => Promise<typeof import('./gguf-model.js')>;
}

export async function queryCache(action: 'has' | 'delete', model: string | WebLLMModel | GgufModel, workerUrl: string | URL | undefined, parts: CacheQueryParts): Promise<boolean> {
  const source = await cachedSource(model, parts);
  const connection = await parts.WorkerConnection.start(parts.startWorker(parts.launch, workerUrl), 15_000);
  try {
    return await connection.track(connection.host.modelCache(action, source));
  } finally {
    // Its one question answered: nothing is pending any more.
    connection.terminate(new DOMException('The cache query is over.', 'AbortError'));
  }
}

async function cachedSource(model: unknown, { namesGguf, webllmSource, InvalidOptionsError, ggufModel }: CacheQueryParts): Promise<CachedModelSource> {
  if (!namesGguf(model)) return { kind: 'webllm', ...webllmSource(model) };
  const { url } = (await ggufModel()).ggufSpec(model);
  if (!url) throw new InvalidOptionsError('model', 'a GGUF given as a Blob is read from the file, never downloaded or cached');
  return { kind: 'gguf', url };
}
