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

test('a model that cannot load: a message on the page, the error itself in the console, and the fake model takes over', async ({ page }) => {
  // A page that believes it has a GPU with shader-f16; the model's worker has none, so the load fails before any download.
  await page.addInitScript(() => {
    const adapter = { features: new Set(['shader-f16']) };
    Object.defineProperty(Navigator.prototype, 'gpu', { configurable: true, get: () => ({ requestAdapter: async () => adapter }) });
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const external: string[] = [];
  page.on('request', (request) => {
    // The page's own origins (the worker starts from a same-origin blob: URL).
    if (!/^(blob:)?http:\/\/127\.0\.0\.1[:/]/.test(request.url())) external.push(request.url());
  });
  await page.goto(`${PAGES}/examples/script-tag/`);
  // The worker loads WebLLM (megabytes of script) before it finds no GPU: give it time on a busy machine.
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await expect(page.locator('#banner')).toHaveText(/^Could not load Qwen2\.5-0\.5B-Instruct-q4f16_1-MLC: [^:]+\. Running a scripted fake model instead\.$/);
  // The console has the error itself: its name and message, not only the page's sentence.
  expect(consoleErrors.some((text) => text.includes('WebGPUUnavailableError') && text.includes('WebGPU is unavailable'))).toBe(true);
  expect(external).toEqual([]);
  await expect(page.locator('#status')).toHaveText('');
  // And the page still works.
  await page.locator('#input').fill('convert 3 km to miles');
  await page.locator('#input').press('Enter');
  await expect(page.locator('#log li').last()).toHaveText('(fake model) Result: {"miles":1.864}');
  await page.screenshot({ path: 'test-results/screenshots/script-tag-load-failed.png' });
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

test('shared: true with the bundle on another origin runs in a worker of the page\'s own, and says why', async ({ page }) => {
  await page.goto(`${PAGES}/examples/script-tag/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const result = await page.evaluate(async () => {
    const w = window as unknown as { TabAgent: typeof import('../src/index.js'); TabAgentTesting: typeof import('../src/testing/index.js') };
    const agent = await w.TabAgent.createAgent({ model: w.TabAgentTesting.fakeModel(['alone']), shared: true, storage: false });
    const warnings: unknown[] = [];
    agent.on('model-warning', (warning) => warnings.push(warning));
    const info = await agent.ready;
    const text = (await (await agent.newChat()).send('hi')).text;
    agent.close();
    return { host: info.host, notShared: info.notShared, warnings, text };
  });
  expect(result).toMatchObject({ host: 'worker', notShared: expect.stringContaining('another origin'), text: 'alone' });
  expect(result.warnings).toEqual([expect.objectContaining({ type: 'not-shared' })]);
});

