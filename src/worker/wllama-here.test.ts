// wllama in a shared worker runs its llama.cpp code in the worker's own thread,
// imported from a blob URL. A realm that refuses such imports (here Node's,
// which imports no blob: URL; in a browser, a policy without `script-src
// blob:`) cannot: the load says so before anything is downloaded, with the
// typed error that sends each tab to a worker of its own, and installs nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { isEngineUnavailableError } from '../errors/index.js';
import { prepareWllama } from './wllama-here.js';

const scope = globalThis as { onconnect?: unknown; Worker?: unknown };

afterEach(() => {
  delete scope.onconnect;
});

describe('prepareWllama', () => {
  it('in a shared worker that refuses modules from blob URLs: EngineUnavailableError, and no Worker stand-in', async () => {
    scope.onconnect = null;
    const error = await prepareWllama('tiny-qwen3').catch((e: unknown) => e);
    expect(isEngineUnavailableError(error)).toBe(true);
    expect(error).toMatchObject({ engine: 'wllama', modelId: 'tiny-qwen3', reason: expect.stringContaining('script-src') });
    expect(scope.Worker).toBeUndefined();
  });

  it('in a dedicated worker: nothing to do', async () => {
    await expect(prepareWllama('tiny-qwen3')).resolves.toBeUndefined();
    expect(scope.Worker).toBeUndefined();
  });
});
