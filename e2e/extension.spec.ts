// The side panel extension (examples/extension, built into dist/extension)
// loaded unpacked in Chromium. Playwright cannot open a real side panel, so
// the test opens the panel's page as a tab: the tools then read the web page
// used last, not the panel's own tab (examples/extension/src/target-tab.ts).
// The model is useFakeModel's, which reaches extension pages as it reaches
// any page (Playwright's init scripts run there too): the extension built for
// the test is the one that ships.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type BrowserContext, type Page } from '@playwright/test';
import { toolCallsText, useFakeModel } from 'tabagent/testing';
import { findChromium } from '../scripts/find-chromium.mjs';
import { startGgufServer, type GgufServer } from './support/gguf-server.mjs';

const EXTENSION = join(import.meta.dirname, '..', 'dist', 'extension');
const TARGET = 'http://127.0.0.1:4176/e2e/pages/extension-target.html';
const DECOY = `${TARGET}?another-page`;
/** Markup in the model's answer is text on screen, never elements. */
const ANSWER = 'You selected a line about the <b>lighthouse</b>.';
const SELECTED = 'The lighthouse on the north pier was rebuilt in 1903';

// One browser for the file: an extension needs a persistent context of its own.
test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let extensionId: string;
let profile: string;
let models: GgufServer;

test.beforeAll(async () => {
  profile = mkdtempSync(join(tmpdir(), 'tabagent-extension-'));
  const args = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--disable-extensions-except=${EXTENSION}`, `--load-extension=${EXTENSION}`];
  context = await chromium.launchPersistentContext(profile, { executablePath: (await findChromium()) ?? undefined, args, headless: true });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  extensionId = new URL(worker.url()).host;
  models = await startGgufServer({ 'tiny.gguf': 'dist/e2e/models/tiny-qwen3.gguf' });
});

test.afterAll(async () => {
  await context?.close();
  await models?.close();
  rmSync(profile, { recursive: true, force: true });
});

async function openTarget(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(TARGET);
  await page.evaluate((text) => {
    const lead = document.getElementById('lead')!.firstChild!;
    const range = document.createRange();
    range.setStart(lead, 0);
    range.setEnd(lead, text.length);
    getSelection()!.removeAllRanges();
    getSelection()!.addRange(range);
  }, SELECTED);
  return page;
}

test("the panel's tools read the page's selection, title and links; the chat is there after a reload", async () => {
  test.setTimeout(60_000);
  // Another web page, used before the test page: the tools must read the one used last.
  await (await context.newPage()).goto(DECOY);
  await openTarget();
  const panel = await context.newPage();
  const errors: string[] = [];
  panel.on('pageerror', (error) => errors.push(error.message));
  const calls = toolCallsText([{ name: 'selected_text' }, { name: 'page_title' }, { name: 'page_links', arguments: { limit: 5 } }]);
  const fake = await useFakeModel(panel, [calls, ANSWER]);

  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);
  await expect(panel.locator('#input')).toBeEnabled();
  await panel.locator('#input').fill('What did I select?');
  await panel.locator('#input').press('Enter');
  await expect(panel.locator('.message.assistant').last()).toHaveText(ANSWER);
  await expect(panel.locator('#log b')).toHaveCount(0);

  // What the tools read reached the model, from the test page (not the panel's own tab).
  const [, second] = await fake.requests();
  expect(second?.last).toContain(SELECTED);
  expect(second?.last).toContain('Harbour notes: the lighthouse');
  expect(second?.last).toContain(TARGET);
  expect(second?.last).not.toContain(DECOY);
  expect(second?.last).toContain('https://example.com/tides');
  expect(second?.last).toContain('https://example.org/ferries');
  expect(second?.last).not.toContain('mailto:');
  await fake.assertComplete();
  await expect(panel.locator('.message.tool')).toContainText([/selected_text/, /page_title/, /page_links/, new RegExp(`selected_text: .*${SELECTED}`)]);

  // The chat is in the extension origin's IndexedDB: a reload shows it again.
  await panel.reload();
  await expect(panel.locator('.message.user')).toHaveText(['What did I select?']);
  await expect(panel.locator('.message.assistant')).toHaveText([ANSWER]);
  await expect(panel.locator('.message.tool').filter({ hasText: SELECTED })).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("real wllama runs under the manifest's CSP: a GGUF from the panel's model setting loads in its worker and answers", async () => {
  test.setTimeout(90_000);
  const panel = await context.newPage();
  const errors: string[] = [];
  panel.on('pageerror', (error) => errors.push(error.message));
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);
  await panel.locator('#settings summary').click();
  await panel.getByRole('textbox', { name: 'Model id or GGUF URL' }).fill(`${models.origin}/tiny.gguf`);
  await panel.getByRole('button', { name: 'Use' }).click();

  // The setting is kept (chrome.storage.local) and the panel starts again on it: llama.cpp's WebAssembly, in wllama's own worker.
  await expect(panel.locator('#model')).toHaveText('tiny', { timeout: 60_000 });
  await expect(panel.locator('#engine')).toHaveText('on the CPU');
  expect(models.downloads('tiny.gguf')).toBe(1);
  await panel.getByRole('button', { name: 'New chat' }).click();
  await panel.locator('#input').fill('Hello');
  await panel.locator('#input').press('Enter');
  // The tiny model's weights make greedy decoding write spaces until the limit (scripts/tiny-gguf.mjs): a whole generation ran.
  await expect(panel.locator('.message.note')).toHaveText('Cut off: the model wrote only blank space.', { timeout: 60_000 });
  await expect(panel.locator('.message.error')).toHaveCount(0);
  expect(errors).toEqual([]);
});
