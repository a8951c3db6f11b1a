import { describe, expect, it } from 'vitest';
import { lazyImport } from './lazy-import.js';

describe('lazyImport', () => {
  it('loads once: every later call gets the same module without loading again', async () => {
    let loads = 0;
    const load = lazyImport(async () => ({ loaded: ++loads }));
    const [a, b] = await Promise.all([load(), load()]);
    expect(await load()).toBe(a);
    expect(b).toBe(a);
    expect(loads).toBe(1);
  });

  it('a failed load is not kept: the next call tries again', async () => {
    let loads = 0;
    const load = lazyImport(async () => {
      if (++loads === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { loaded: loads };
    });
    await expect(load()).rejects.toThrow('Failed to fetch');
    expect(await load()).toEqual({ loaded: 2 });
  });
});
