import { describe, expect, it } from 'vitest';
import { pickTargetTab, type TabLike } from './target-tab.js';

const OWN = 'chrome-extension://abcdefghijklmnop/';
const panel: TabLike = { id: 1, url: `${OWN}sidepanel.html`, active: true, lastAccessed: 300 };

describe('pickTargetTab', () => {
  it('takes the active tab of the focused window: the page beside the real side panel', () => {
    const page = { id: 2, url: 'https://example.com/', active: true, lastAccessed: 200 };
    expect(pickTargetTab([page], [page, { id: 3, url: 'https://other.example/', active: false, lastAccessed: 250 }], OWN)?.id).toBe(2);
  });

  it("skips the extension's own page when the panel is open as a tab, and takes the page used last", () => {
    const older = { id: 2, url: 'https://older.example/', active: false, lastAccessed: 100 };
    const newer = { id: 3, url: 'http://127.0.0.1:4176/page.html', active: false, lastAccessed: 200 };
    expect(pickTargetTab([panel], [older, panel, newer], OWN)?.id).toBe(3);
  });

  it('never picks a page scripts cannot read (chrome://, about:blank, another extension)', () => {
    const tabs = [panel, { id: 4, url: 'chrome://settings/', active: false, lastAccessed: 500 }, { id: 5, url: 'about:blank', active: false, lastAccessed: 600 }, { id: 6, url: 'chrome-extension://zzzz/x.html', active: false, lastAccessed: 700 }];
    expect(pickTargetTab([panel], tabs, OWN)).toBeUndefined();
  });

  it('takes a tab with no lastAccessed (older Chrome) only when nothing better is known', () => {
    const unknown = { id: 2, url: 'https://a.example/', active: false };
    const known = { id: 3, url: 'https://b.example/', active: false, lastAccessed: 1 };
    expect(pickTargetTab([panel], [unknown, known], OWN)?.id).toBe(3);
    expect(pickTargetTab([panel], [unknown], OWN)?.id).toBe(2);
  });
});
