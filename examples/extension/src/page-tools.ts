// The assistant's tools: they read the tab beside the panel through the
// extension's own APIs (chrome.scripting runs a function in that page and
// hands back what it returns). Read-only: nothing here changes the page.
import { z } from 'zod';
import { tool } from '../../../src/index.js';
import { findTargetTab } from './target-tab.js';

/** Runs `func` in the target tab's top frame and returns its result. */
async function inTargetTab<Args extends unknown[], Result>(func: (...args: Args) => Result, ...args: Args): Promise<{ url: string; result: Awaited<Result> }> {
  const tab = await findTargetTab();
  // Said to the model (onError: 'inform'), which can tell the person.
  if (tab?.id === undefined) throw new Error('No web page is open beside the assistant.');
  const [injection] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, func, args });
  if (!injection || injection.result === undefined) throw new Error(`Could not read ${tab.url ?? 'the page'}.`);
  return { url: tab.url ?? '', result: injection.result };
}

// The functions below run in the page, sent as source: they use nothing from outside themselves.

function readTitle(): string {
  return document.title;
}

function readSelection(): string {
  return getSelection()?.toString() ?? '';
}

function readLinks(limit: number): { links: Array<{ text: string; href: string }>; total: number } {
  const anchors = [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].filter((a) => /^https?:/.test(a.href));
  return { links: anchors.slice(0, limit).map((a) => ({ text: (a.innerText || a.title || '').trim().slice(0, 200), href: a.href })), total: anchors.length };
}

export const pageTitle = tool({
  name: 'page_title',
  description: "The title and address of the web page open beside the assistant",
  input: z.object({}),
  readOnly: true,
  onError: 'inform',
  run: async () => {
    const { url, result } = await inTargetTab(readTitle);
    return { title: result, url };
  },
});

export const selectedText = tool({
  name: 'selected_text',
  description: 'The text the user has selected on the web page open beside the assistant',
  input: z.object({}),
  readOnly: true,
  onError: 'inform',
  run: async () => {
    const { url, result } = await inTargetTab(readSelection);
    return result ? { text: result, url } : { text: '', url, note: 'Nothing is selected on the page.' };
  },
});

export const pageLinks = tool({
  name: 'page_links',
  description: 'The links on the web page open beside the assistant, in page order',
  input: z.object({ limit: z.number().int().min(1).max(100).default(20).describe('how many links to list at most') }),
  readOnly: true,
  onError: 'inform',
  run: async ({ limit }) => {
    const { url, result } = await inTargetTab(readLinks, limit);
    return { url, ...result };
  },
});

export const pageTools = [pageTitle, selectedText, pageLinks];
