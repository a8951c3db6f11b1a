import { describe, expect, it } from 'vitest';
import { TabSync } from './tab-sync.js';

describe('TabSync', () => {
  it('a commit announced after the agent closed its sync is not an error (the commit itself went through)', () => {
    const sync = new TabSync(`closed-${Math.random()}`, true);
    sync.close();
    expect(() => sync.announce('chat-1', {})).not.toThrow();
  });
  it("another tab hears each commit; this tab's other chats at once, other tabs once this task is done", async () => {
    const scope = `tabs-${Math.random()}`;
    const here = new TabSync(scope, true);
    const there = new TabSync(scope, true);
    const heardHere: string[] = [];
    const heardThere: string[] = [];
    here.subscribe('chat-1', {}, () => heardHere.push('chat-1'));
    there.subscribe('chat-1', {}, () => heardThere.push('chat-1'));
    here.announce('chat-1', {});
    expect(heardHere).toEqual(['chat-1']);
    expect(heardThere).toEqual([]);
    for (let i = 0; i < 100 && heardThere.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(heardThere).toEqual(['chat-1']);
    here.close();
    there.close();
  });

  it('a commit announced just before the agent closes still reaches the other tabs', async () => {
    const scope = `closing-${Math.random()}`;
    const here = new TabSync(scope, true);
    const there = new TabSync(scope, true);
    const heard: string[] = [];
    there.subscribe('chat-1', {}, () => heard.push('chat-1'));
    here.announce('chat-1', {});
    here.close();
    for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(heard).toEqual(['chat-1']);
    there.close();
  });
});
