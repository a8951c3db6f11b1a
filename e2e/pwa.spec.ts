// The offline assistant (examples/pwa), built into dist/pwa, in a Chromium
// without WebGPU: it runs on the fake model, installs its service worker
// (Workbox's, from vite-plugin-pwa), and keeps working (app, worker, chats)
// with the network off.
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { tinyGguf } from '../scripts/tiny-gguf.mjs';
import { answerEverywhere } from './browser-fetch.js';

const PWA = 'http://127.0.0.1:4175/';
const DIST = join(import.meta.dirname, '..', 'dist', 'pwa');
const SHOTS = 'test-results/screenshots';

test.use({ baseURL: PWA });

/** The CPU model the app offers without WebGPU (a curated id), and where wllama fetches it from. */
const CPU_MODEL = 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF';
const CPU_MODEL_URL = 'https://huggingface.co/bartowski/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf';

/** Nothing leaves this machine: requests to other hosts are refused (and noted), as with no network. */
async function noInternet(context: BrowserContext): Promise<string[]> {
  const asked: string[] = [];
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
    asked.push(`${route.request().method()} ${route.request().url()}`);
    return route.abort('internetdisconnected');
  });
  return asked;
}

test.beforeEach(async ({ context }) => {
  await noInternet(context);
});

/** Every built file the service worker should hold: all of dist/pwa but itself. */
function builtFiles(dir = DIST): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? builtFiles(path) : [`/${relative(DIST, path).split(sep).join('/')}`];
  });
}

async function precachedPaths(page: Page): Promise<{ caches: string[]; paths: string[] }> {
  return page.evaluate(async () => {
    const names = (await caches.keys()).filter((name) => name.startsWith('tabagent-pwa-'));
    const cache = await caches.open(names[0] ?? 'none');
    return { caches: names, paths: (await cache.keys()).map((request) => new URL(request.url).pathname).sort() };
  });
}

/** Records the text of the assistant bubbles each time it grows, to see a reply arrive in pieces. */
async function recordAssistantText(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { assistantText: seen });
    new MutationObserver((records) => {
      for (const record of records) {
        if (!(record.target instanceof Element) || !record.target.classList.contains('assistant')) continue;
        for (const node of record.addedNodes) if (node.nodeType === Node.TEXT_NODE) seen.push(node.textContent ?? '');
      }
    }).observe(document.getElementById('log')!, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { assistantText: string[] }).assistantText);
}

async function say(page: Page, text: string): Promise<void> {
  await page.locator('#input').fill(text);
  await page.locator('#input').press('Enter');
}

test('installs, then starts, chats and lists its chats offline', async ({ context, page }) => {
  test.setTimeout(60_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  // First visit, online.
  await page.goto('/');
  await expect(page.locator('#banner')).toContainText('No WebGPU');
  await expect(page.locator('#model')).toHaveText('fake-model');
  await expect(page.locator('#network')).toHaveText('Online');
  // The service worker installed (precache done) and claimed this page.
  await expect(page.locator('#offline-ready')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${PWA}sw.js`);

  // The precache holds every built file: shell, chunks, the tabagent worker, the WebLLM chunk, icons, manifest.
  const built = builtFiles().filter((path) => path !== '/sw.js').sort();
  // The service worker is Workbox's, one file with its runtime inside.
  expect(readFileSync(join(DIST, 'sw.js'), 'utf8')).toContain('workbox');
  expect(built).toEqual(expect.arrayContaining(['/index.html', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png']));
  expect(built.some((path) => /^\/assets\/worker-[\w-]+\.js$/.test(path))).toBe(true);
  expect(built.some((path) => /^\/assets\/webllm-engine-[\w-]+\.js$/.test(path))).toBe(true);
  const precache = await precachedPaths(page);
  expect(precache.caches).toHaveLength(1);
  expect(precache.paths).toEqual(built);

  // Storage and model panels.
  await expect(page.locator('#storage-used')).toHaveText(/^\d+(\.\d+)? (B|kB|MB|GB|TB)( of \d+(\.\d+)? (B|kB|MB|GB|TB))?$/);
  await expect(page.locator('#storage-persisted')).not.toHaveText('…');
  // Without WebGPU the model to download is the CPU one, offered, not fetched by itself.
  await expect(page.locator('#download-model')).toHaveText(CPU_MODEL);
  await expect(page.locator('#model-cached')).toHaveText('not downloaded');
  await expect(page.locator('#delete-model')).toBeDisabled();

  // One chat, with the managed notes tool, streamed.
  const assistantText = await recordAssistantText(page);
  await say(page, 'Note: buy oat milk');
  // The whole answer (its JSON closed), not a piece of it still streaming.
  await expect(page.locator('.message.assistant').last()).toHaveText(/"saved":"buy oat milk".*\}$/);
  const answer = await page.locator('.message.assistant').last().textContent();
  const pieces = (await assistantText()).filter((text) => text.startsWith('(fake model)'));
  expect(pieces.length, 'the answer was shown as it streamed in').toBeGreaterThan(1);
  expect(pieces.every((text) => answer!.startsWith(text))).toBe(true);
  await expect(page.locator('.message.tool').first()).toHaveText('→ save_note({"text":"buy oat milk"})');
  await expect(page.locator('#chat-list li')).toHaveCount(1);
  await expect(page.locator('#chat-list li').first()).toContainText('Note: buy oat milk');
  await page.screenshot({ path: `${SHOTS}/pwa-online.png`, fullPage: true });

  // Offline: reload, and everything comes from the service worker's cache and IndexedDB.
  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('#network')).toHaveText('Offline');
  await expect(page.locator('#network')).toHaveAttribute('data-state', 'offline');
  await expect(page.locator('#model')).toHaveText('fake-model');
  await expect(page.locator('#offline-ready')).toHaveAttribute('data-state', 'ready');
  // The network really is off, for the service worker too: what it has not cached fails.
  expect(await page.evaluate(() => fetch('/not-precached.txt').then((r) => `status ${r.status}`, (e: Error) => e.name))).toBe('TypeError');

  // The stored chat is listed and reopened.
  await expect(page.locator('#chat-list li')).toHaveCount(1);
  await expect(page.locator('.message.user').first()).toHaveText('Note: buy oat milk');
  await expect(page.locator('.message.assistant').first()).toHaveText('Saving that.');

  // It still chats: in the open chat, then in a new one.
  await say(page, 'What are my notes?');
  await expect(page.locator('.message.assistant').last()).toContainText('"notes":["buy oat milk"]');
  await page.locator('#new-chat').click();
  await expect(page.locator('.message')).toHaveCount(0);
  await say(page, 'Note: call Ana');
  await expect(page.locator('.message.assistant').last()).toContainText('"saved":"call Ana"');
  await expect(page.locator('#chat-list li')).toHaveCount(2);
  await expect(page.locator('#chat-list li').first()).toContainText('Note: call Ana');

  // Picking a chat from the list reopens it from IndexedDB.
  await page.locator('#chat-list li', { hasText: 'Note: buy oat milk' }).getByRole('button').click();
  await expect(page.locator('.message.user')).toHaveText(['Note: buy oat milk', 'What are my notes?']);
  await expect(page.locator('.message.assistant').last()).toContainText('"notes":["buy oat milk"]');

  // The model-cache check runs in a worker that loads the WebLLM chunk: offline, from the precache.
  await expect(page.locator('#model-cached')).toHaveText('not downloaded');
  await expect(page.locator('#storage-used')).toHaveText(/\d (B|kB|MB|GB|TB)/);
  await page.screenshot({ path: `${SHOTS}/pwa-offline.png`, fullPage: true });

  await context.setOffline(false);
  expect(errors, 'uncaught errors in the page').toEqual([]);
});

test("a second tab answers on the model the first tab loaded: one model, shared by the app's tabs", async ({ context, page }) => {
  await page.goto('/');
  await expect(page.locator('#model')).toHaveText('fake-model');
  await expect(page.locator('#engine')).toHaveText("scripted fake, shared by this app's tabs");
  const second = await context.newPage();
  await second.goto('/');
  await expect(second.locator('#engine')).toHaveText("scripted fake, shared by this app's tabs");
  // Both tabs ask at once; each gets its whole answer, on the one model.
  await Promise.all([say(page, 'Note: from the first tab'), say(second, 'Note: from the second tab')]);
  await expect(page.locator('.message.assistant').last()).toHaveText(/"saved":"from the first tab".*\}$/);
  await expect(second.locator('.message.assistant').last()).toHaveText(/"saved":"from the second tab".*\}$/);
});

test('the precache lists every built file once', () => {
  // Workbox's precache list, as the build inlined it into sw.js: { url, revision } per entry.
  const entries = [...readFileSync(join(DIST, 'sw.js'), 'utf8').matchAll(/\{url:"([^"]+)",revision:(?:"[0-9a-f]+"|null)\}/g)].map((m) => `/${m[1]}`);
  const built = builtFiles().filter((path) => path !== '/sw.js').sort();
  expect(entries.length).toBeGreaterThan(0);
  expect(entries.filter((url, i) => entries.indexOf(url) !== i), 'listed twice').toEqual([]);
  expect([...entries].sort()).toEqual(built);
});

test('without WebGPU: a CPU model downloaded once is offered offline, and answers on the real engine', async ({ context, page }) => {
  // Two loads of llama.cpp in WebAssembly and a reply, on one thread.
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // "Hugging Face" for the curated CPU model: the tiny GGUF (real llama.cpp, crafted weights); wllama's
  // LFS-pointer lookup (/raw/) finds nothing. Everything else off this machine stays refused.
  const gguf = await readFile(await tinyGguf());
  const fetched: string[] = [];
  // The model loads in the app's shared worker, where Playwright's routes do not reach (browser-fetch.ts).
  const stop = await answerEverywhere(context, CPU_MODEL_URL, ({ method, headers }) => {
    // A ranged GET is the header read before a download (the GGUF's metadata), not a download.
    fetched.push(Object.keys(headers).some((name) => name.toLowerCase() === 'range') ? `${method} (range)` : method);
    return { body: gguf, headers: { 'content-type': 'application/octet-stream', 'access-control-allow-origin': '*' } };
  });
  try {
    // Online, first visit: no WebGPU, so the CPU model is offered, with its size; nothing downloads by itself.
    await page.goto('/');
    await expect(page.locator('#model')).toHaveText('fake-model', { timeout: 30_000 });
    await expect(page.locator('#banner')).toContainText('No WebGPU');
    await expect(page.locator('#banner')).toContainText(CPU_MODEL);
    await expect(page.locator('#download-model')).toHaveText(CPU_MODEL);
    await expect(page.locator('#model-cached')).toHaveText('not downloaded');
    const download = page.getByRole('button', { name: `Download ${CPU_MODEL}` });
    await expect(download).toHaveText('Download (22 MB)');
    await page.screenshot({ path: `${SHOTS}/pwa-cpu-offered.png`, fullPage: true });
    expect(fetched.filter((method) => method === 'GET')).toEqual([]);
    await expect(page.locator('#offline-ready')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });

    // Downloaded once, it runs on the CPU at once.
    await download.click();
    await expect(page.locator('#model')).toHaveText(CPU_MODEL, { timeout: 60_000 });
    await expect(page.locator('#engine')).toHaveText("on the CPU (wllama, 1 thread), shared by this app's tabs");
    await expect(page.locator('#banner')).toBeHidden();
    await expect(page.locator('#model-cached')).toHaveText('downloaded');
    await expect(download).toBeHidden();
    expect(fetched.filter((method) => method === 'GET')).toHaveLength(1);

    // Offline: the reload comes from the service worker, the model from wllama's cache.
    await context.setOffline(true);
    await page.reload();
    await expect(page.locator('#network')).toHaveText('Offline');
    await expect(page.locator('#model')).toHaveText(CPU_MODEL, { timeout: 60_000 });
    await expect(page.locator('#engine')).toHaveText("on the CPU (wllama, 1 thread), shared by this app's tabs");
    await expect(page.locator('#banner')).toBeHidden();
    await expect(page.locator('#model-cached')).toHaveText('downloaded');

    // It answers. The crafted model writes only blank space (its longest token, 128 spaces): the
    // library stops that and says so, so the reply ends within seconds instead of filling the window.
    await say(page, 'Note: buy oat milk');
    await expect(page.locator('.message.note').last()).toHaveText('Cut off: the model wrote only blank space.', { timeout: 60_000 });
    await expect(page.locator('#send')).toBeEnabled();
    await expect(page.locator('#chat-list li')).toHaveCount(1);
    expect(fetched.filter((method) => method === 'GET'), 'nothing downloaded again').toHaveLength(1);
    await page.screenshot({ path: `${SHOTS}/pwa-cpu-offline.png`, fullPage: true });

    await context.setOffline(false);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  } finally {
    await stop();
  }
});

test('links a manifest that makes Chromium consider the app installable', async ({ playwright }, testInfo) => {
  test.setTimeout(60_000);
  // Playwright's contexts are incognito, where Chromium never offers installs
  // ('in-incognito'): a persistent profile gets its real verdict.
  const context = await playwright.chromium.launchPersistentContext('', { ...testInfo.project.use.launchOptions, baseURL: PWA });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();
    const manifestUrl = new URL(href!, page.url()).href;
    const manifest = (await (await page.request.get(manifestUrl)).json()) as {
      name: string;
      start_url: string;
      display: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
    };
    expect(manifest.name).toBe('tabagent assistant');
    expect(new URL(manifest.start_url, manifestUrl).href).toBe(PWA);
    expect(['standalone', 'fullscreen', 'minimal-ui']).toContain(manifest.display);
    expect(manifest.icons.filter((icon) => icon.type === 'image/png').map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);

    // Every icon exists, with the type it claims and, for PNGs, the size it claims; each is a committed file, served as it is.
    for (const icon of manifest.icons) {
      const response = await page.request.get(new URL(icon.src, manifestUrl).href);
      expect(response.ok(), icon.src).toBe(true);
      expect(response.headers()['content-type'], icon.src).toContain(icon.type);
      const body = await response.body();
      expect(body.equals(readFileSync(join(import.meta.dirname, '..', 'examples', 'pwa', 'public', icon.src))), icon.src).toBe(true);
      if (icon.type === 'image/png') {
        // IHDR: width and height, big-endian, after the 8-byte signature and the chunk's length and type.
        expect(`${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
      }
    }

    // Chromium's own verdict, once the service worker controls the page.
    await expect(page.locator('#offline-ready')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    const cdp = await context.newCDPSession(page);
    const { errors: manifestErrors } = await cdp.send('Page.getAppManifest');
    expect(manifestErrors).toEqual([]);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
  }
});

test.describe('on a phone-sized screen', () => {
  test.use({ viewport: { width: 390, height: 700 }, isMobile: true, hasTouch: true });

  test('a new answer scrolls into view, above the composer', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/');
    await expect(page.locator('#model')).toHaveText('fake-model');
    const composer = page.locator('#composer');
    // Enough turns that the page is taller than the screen.
    for (const note of ['buy oat milk', 'call Ana', 'water the plants', 'book the train']) {
      await say(page, `Note: ${note}`);
      await expect(page.locator(".message.assistant").last()).toContainText(`"saved":"${note}"`, { timeout: 15_000 });
    }
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(700);
    await say(page, 'What are my notes?');
    const answer = page.locator('.message.assistant').last();
    await expect(answer).toContainText('"notes":["buy oat milk","call Ana","water the plants","book the train"]');
    // All of the answer is on screen, and none of it under the composer.
    await expect(answer).toBeInViewport({ ratio: 1 });
    await expect.poll(async () => (await answer.boundingBox())!.y + (await answer.boundingBox())!.height).toBeLessThanOrEqual((await composer.boundingBox())!.y);
    await page.screenshot({ path: `${SHOTS}/pwa-phone-answer.png` });
    expect(errors).toEqual([]);
  });
});
