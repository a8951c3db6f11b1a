// Which tab the tools read. In the real side panel the panel is no tab, so the
// active tab of the focused window is the page beside it. Opened as a tab
// (chrome-extension://…/sidepanel.html, as the e2e test opens it, or as a
// person may), the panel is itself the active tab: then the page read is the
// web page used last, never the extension's own.

/** The fields of chrome.tabs.Tab this picks by. */
export interface TabLike {
  id?: number;
  url?: string;
  active: boolean;
  /** Chrome 121+: when the tab was last active, in ms since the epoch. */
  lastAccessed?: number;
}

/** Scripts may read only web pages and files, and never another extension's or the browser's own pages. */
function readable(tab: TabLike, ownOrigin: string): boolean {
  return tab.id !== undefined && tab.url !== undefined && !tab.url.startsWith(ownOrigin) && /^(https?|file):/.test(tab.url);
}

/**
 * `activeInFocusedWindow`: chrome.tabs.query({ active: true, lastFocusedWindow: true });
 * `all`: every tab; `ownOrigin`: chrome.runtime.getURL('').
 */
export function pickTargetTab<T extends TabLike>(activeInFocusedWindow: readonly T[], all: readonly T[], ownOrigin: string): T | undefined {
  const active = activeInFocusedWindow.find((tab) => readable(tab, ownOrigin));
  if (active) return active;
  const candidates = all.filter((tab) => readable(tab, ownOrigin));
  return candidates.reduce<T | undefined>((best, tab) => (!best || (tab.lastAccessed ?? -1) > (best.lastAccessed ?? -1) ? tab : best), undefined);
}

/** The tab to read now; undefined when no web page is open. */
export async function findTargetTab(): Promise<chrome.tabs.Tab | undefined> {
  const [active, all] = await Promise.all([chrome.tabs.query({ active: true, lastFocusedWindow: true }), chrome.tabs.query({})]);
  return pickTargetTab(active, all, chrome.runtime.getURL(''));
}
