import { describe, expect, it } from 'vitest';
import { byteProgress, phaseOf } from './load-progress.js';

describe('WebLLM load progress in bytes', () => {
  it('reads the phase from WebLLM 0.2.86’s texts', () => {
    expect(phaseOf('Start to fetch params')).toBe('download');
    expect(phaseOf('Fetching param cache[3/25]: 120MB fetched. 15% completed, 10 secs elapsed.')).toBe('download');
    expect(phaseOf('Loading model from cache[3/25]: 120MB loaded. 15% completed, 2 secs elapsed.')).toBe('load');
    expect(phaseOf('Loading GPU shader modules[10/80]: 12% completed, 1 secs elapsed.')).toBe('compile');
    expect(phaseOf('Finish loading on WebGPU - nvidia')).toBe('load');
  });

  it('turns the fraction into bytes of the manifest’s total, with the speed of the last seconds', () => {
    let clock = 0;
    const read = byteProgress(() => 1_000_000, () => clock);
    expect(read({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' })).toMatchObject({ phase: 'download', loaded: 0, total: 1_000_000 });
    clock = 1000;
    expect(read({ progress: 0.25, timeElapsed: 1, text: 'Fetching param cache[1/4]: 1MB fetched.' })).toMatchObject({ loaded: 250_000, bytesPerSecond: 250_000 });
    clock = 2000;
    expect(read({ progress: 0.75, timeElapsed: 2, text: 'Fetching param cache[3/4]: 1MB fetched.' })).toMatchObject({ loaded: 750_000, bytesPerSecond: 375_000 });
    const loading = read({ progress: 0.5, timeElapsed: 3, text: 'Loading model from cache[2/4]: 1MB loaded.' });
    expect(loading).toMatchObject({ phase: 'load', loaded: 500_000, total: 1_000_000 });
    expect(loading.bytesPerSecond).toBeUndefined();
  });

  it('says nothing of bytes it does not know', () => {
    const read = byteProgress(() => undefined);
    const report = read({ progress: 0.5, timeElapsed: 1, text: 'Fetching param cache[2/4]' });
    expect(report).toEqual({ progress: 0.5, timeElapsedSeconds: 1, text: 'Fetching param cache[2/4]', phase: 'download' });
  });
});
