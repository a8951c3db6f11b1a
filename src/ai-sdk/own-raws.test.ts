import { describe, expect, it } from 'vitest';
import { OwnRaws } from './own-raws.js';

describe('OwnRaws', () => {
  it('trusts only raws it was told of, forgetting the least recently seen past its bound', () => {
    const raws = new OwnRaws(3);
    for (const raw of ['a', 'b', 'c']) raws.remember(raw, 'm');
    expect(raws.has('forged', 'm')).toBe(false);
    // Seen again: kept longer than 'b'.
    expect(raws.has('a', 'm')).toBe(true);
    raws.remember('d', 'm');
    expect(['a', 'b', 'c', 'd'].map((r) => raws.has(r, 'm'))).toEqual([true, false, true, true]);
  });

  it('trusts a raw only for the model that wrote it', () => {
    const raws = new OwnRaws();
    raws.remember('<|im_start|>system', 'llama');
    expect(raws.has('<|im_start|>system', 'qwen')).toBe(false);
    expect(raws.has('<|im_start|>system', 'llama')).toBe(true);
  });
});
