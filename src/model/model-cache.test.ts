// isModelCached / deleteCachedModel from the page side: what the short worker
// is asked, that it is let go of once it answered, and what is refused before
// any worker starts. The "worker" is one end of a MessageChannel whose other
// end answers as the engine host's modelCache would.
import { describe, expect, it } from 'vitest';
import { isInvalidOptionsError } from '../errors/index.js';
import type { CachedModelSource } from '../rpc/worker-protocol.js';
import { inThreadWorkers } from '../test-support/in-thread-workers.js';
import { modelCacheWith } from './model-cache.js';

function cacheWorkers(cached: boolean) {
  const asked: Array<{ action: string; source: CachedModelSource }> = [];
  const { launch, workers } = inThreadWorkers(() => ({ modelCache: async (action: string, source: CachedModelSource) => (asked.push({ action, source }), cached) }));
  return { launch, asked, workers };
}

describe('the model cache queries', () => {
  it('ask a worker about a WebLLM model, answer what it says, and let it go', async () => {
    const { launch, asked, workers } = cacheWorkers(true);
    const { isModelCached } = modelCacheWith(launch);
    expect(await isModelCached('SmolLM2-360M-Instruct-q4f16_1-MLC')).toBe(true);
    expect(asked).toEqual([{ action: 'has', source: { kind: 'webllm', modelId: 'SmolLM2-360M-Instruct-q4f16_1-MLC' } }]);
    expect(workers.map((w) => w.terminated)).toEqual([true]);
  });

  it('delete a GGUF by its URL', async () => {
    const { launch, asked, workers } = cacheWorkers(false);
    const { deleteCachedModel } = modelCacheWith(launch);
    await expect(deleteCachedModel({ gguf: 'https://example.com/models/tiny-q4_k_m.gguf' })).resolves.toBeUndefined();
    expect(asked).toEqual([{ action: 'delete', source: { kind: 'gguf', url: 'https://example.com/models/tiny-q4_k_m.gguf' } }]);
    expect(workers.map((w) => w.terminated)).toEqual([true]);
  });

  it('refuse a GGUF given as a Blob, and a model that names nothing, before a worker starts', async () => {
    const { launch, workers } = cacheWorkers(true);
    const { isModelCached } = modelCacheWith(launch);
    for (const model of [{ gguf: new Blob(['GGUF']) }, 42 as unknown as string]) {
      const error = await isModelCached(model).catch((e: unknown) => e);
      expect(isInvalidOptionsError(error)).toBe(true);
    }
    expect(workers).toEqual([]);
  });
});
