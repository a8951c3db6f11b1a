// The script-tag bundle, as a page without a build step uses it.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';

const PAGES = 'http://127.0.0.1:4176';

test('the example page, with the bundle on another origin, chats with both tools', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${PAGES}/examples/script-tag/`);
  // The bundle really came from the other origin.
  expect(await page.locator('script[src*="tabagent.js"]').getAttribute('src')).toBe('http://127.0.0.1:4177/tabagent.js');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#banner')).toBeVisible();
  const input = page.locator('#input');
  await input.fill('convert 3 km to miles');
  await input.press('Enter');
  await expect(page.locator('#log li').last()).toHaveText('(fake model) Result: {"miles":1.864}');
  await input.fill('what is my screen size?');
  await input.press('Enter');
  await expect(page.locator('#log li.tool').last()).toContainText('get_screen_size');
  await expect(page.locator('#log li').last()).toContainText('"width"');
  expect(errors).toEqual([]);
});

test('under the documented strict CSP it works, with no violation', async ({ page }) => {
  await page.goto(`${PAGES}/e2e/pages/csp.html`);
  const status = page.locator('#status');
  await expect(status).toHaveAttribute('data-done', 'true');
  await expect(status).toHaveText('ok: It is 42.');
  expect(await status.getAttribute('data-violations')).toBe('');
});

test('without worker-src it fails fast with WorkerStartError, not a hang', async ({ page }) => {
  await page.goto(`${PAGES}/e2e/pages/csp-no-worker.html`);
  const status = page.locator('#status');
  await expect(status).toHaveAttribute('data-done', 'true');
  await expect(status).toContainText('error: WorkerStartError');
  expect(Number(await status.getAttribute('data-ms'))).toBeLessThan(5000);
});

test('test code stays out of production: TabAgent has no fake model, and the worker loads the fake engine and xgrammar only on demand', async ({ page }) => {
  await page.goto(`${PAGES}/examples/script-tag/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const globals = await page.evaluate(() => {
    const w = window as unknown as { TabAgent: Record<string, unknown>; TabAgentTesting: Record<string, unknown> };
    return { production: 'fakeModel' in w.TabAgent || 'toolCallText' in w.TabAgent, testing: typeof w.TabAgentTesting.fakeModel };
  });
  expect(globals).toEqual({ production: false, testing: 'function' });
  for (const file of ['tabagent.js', 'tabagent-worker.js']) {
    const source = await readFile(new URL(`../dist/script-tag/${file}`, import.meta.url), 'utf8');
    expect(source, file).not.toContain("fake model's script");
    expect(source, file).not.toContain('GrammarMatcher');
  }
});
