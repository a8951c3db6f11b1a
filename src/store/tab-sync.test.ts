import { describe, expect, it } from 'vitest';
import { TabSync } from './tab-sync.js';

describe('TabSync', () => {
  it('a commit announced after the agent closed its sync is not an error (the commit itself went through)', () => {
    const sync = new TabSync(`closed-${Math.random()}`, true);
    sync.close();
    expect(() => sync.announce('chat-1', {})).not.toThrow();
  });
});
