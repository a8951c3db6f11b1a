import { describe, expect, it } from 'vitest';
import { OwnRaws } from './own-raws.js';

describe('OwnRaws', () => {
  it('trusts only raws it was told of, forgetting the least recently seen past its bound', () => {
    const raws = new OwnRaws(3);
    for (const raw of ['a', 'b', 'c']) raws.remember(raw);
    expect(raws.has('forged')).toBe(false);
    // Seen again: kept longer than 'b'.
    expect(raws.has('a')).toBe(true);
    raws.remember('d');
    expect(['a', 'b', 'c', 'd'].map((r) => raws.has(r))).toEqual([true, false, true, true]);
  });
});
