import { describe, expect, it, vi } from 'vitest';
import { TabSync } from './tab-sync.js';

/** Two tabs' syncs on one database; `heard`: the notices `there` gets of the chats named. */
function twoTabs(...chatIds: string[]) {
  const scope = `tabs-${Math.random()}`;
  const here = new TabSync(scope, true);
  const there = new TabSync(scope, true);
  const heard: string[] = [];
  for (const chatId of chatIds) there.subscribe(chatId, {}, () => heard.push(chatId));
  /** Waits (half a second at most) for `count` notices to have come. */
  const hears = async (count: number) => {
    for (let i = 0; i < 100 && heard.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const close = () => {
    here.close();
    there.close();
  };
  return { here, heard, hears, close };
}

describe('TabSync', () => {
  it('a commit announced after the agent closed its sync is not an error (the commit itself went through)', () => {
    const sync = new TabSync(`closed-${Math.random()}`, true);
    sync.close();
    expect(() => sync.announce('chat-1', {})).not.toThrow();
  });

  it("another tab hears each commit; this tab's other chats at once, other tabs a moment later", async () => {
    const { here, heard, hears, close } = twoTabs('chat-1');
    const heardHere: string[] = [];
    here.subscribe('chat-1', {}, () => heardHere.push('chat-1'));
    here.announce('chat-1', {});
    expect(heardHere).toEqual(['chat-1']);
    expect(heard).toEqual([]);
    await hears(1);
    expect(heard).toEqual(['chat-1']);
    close();
  });

  it('a commit announced just before the agent closes still reaches the other tabs', async () => {
    const { here, heard, hears, close } = twoTabs('chat-1');
    here.announce('chat-1', {});
    here.close();
    await hears(1);
    expect(heard).toEqual(['chat-1']);
    close();
  });

  it('commits in quick succession reach another tab as one notice a chat', async () => {
    const { here, heard, hears, close } = twoTabs('chat-1', 'chat-2');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Each commit in a task of its own, as a run's are.
      for (const chatId of ['chat-1', 'chat-1', 'chat-2', 'chat-1']) {
        here.announce(chatId, {});
        await new Promise((resolve) => setImmediate(resolve));
      }
      vi.advanceTimersByTime(20);
    } finally {
      vi.useRealTimers();
    }
    await hears(2);
    // Time for any further notice to arrive: none does.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toEqual(['chat-1', 'chat-2']);
    close();
  });

  it('a tab closing while it gathers sends what it gathered at once', async () => {
    // The page's events, where Node has none.
    const page = new EventTarget();
    const g = globalThis as { addEventListener?: EventTarget['addEventListener']; removeEventListener?: EventTarget['removeEventListener'] };
    g.addEventListener = page.addEventListener.bind(page);
    g.removeEventListener = page.removeEventListener.bind(page);
    const { here, heard, hears, close } = twoTabs('chat-1');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      here.announce('chat-1', {});
      page.dispatchEvent(new Event('pagehide'));
    } finally {
      vi.useRealTimers();
      delete g.addEventListener;
      delete g.removeEventListener;
    }
    // The gathering timer never fired (fake, not advanced): the notice left on pagehide.
    await hears(1);
    expect(heard).toEqual(['chat-1']);
    close();
  });
});
