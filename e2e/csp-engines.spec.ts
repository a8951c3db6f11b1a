// The engines under a strict Content-Security-Policy, with the bundle on a CDN
// (another origin) and a GGUF on a third. docs/security.md's table names every
// directive each engine needs; with one missing, the load fails with a
// ModelLoadError that names the URL and the directive, before the model is
// downloaded (not, as before, after it, as a crashed worker).
import { expect, test, type Page } from '@playwright/test';
import { startGgufServer, type GgufServer } from './support/gguf-server.mjs';

const PAGE = 'http://127.0.0.1:4176/e2e/pages/csp-gguf.html';
const CDN = 'http://127.0.0.1:4177';

test.describe.configure({ timeout: 90_000 });

let models: GgufServer;
test.beforeAll(async () => {
  models = await startGgufServer({ 'tiny.gguf': 'dist/e2e/models/tiny-qwen3.gguf' });
});
test.afterAll(() => models.close());

/** docs/security.md's policy for a bundle on a CDN and a GGUF, with `connectSrc` as given. */
function policy(connectSrc: string): string {
  return `default-src 'none'; script-src 'self' 'wasm-unsafe-eval' ${CDN}; worker-src blob: ${CDN}; connect-src ${connectSrc}; style-src 'self'; img-src 'self'`;
}

async function open(page: Page, csp: string) {
  await page.goto(`${PAGE}?csp=${encodeURIComponent(csp)}#${encodeURIComponent(`${models.origin}/tiny.gguf`)}`);
  const status = page.locator('#status');
  await expect(status).toHaveAttribute('data-done', 'true', { timeout: 80_000 });
  return status;
}

test('with every directive docs/security.md lists, a GGUF loads and answers, with no violation', async ({ page }) => {
  const status = await open(page, policy(`${CDN} ${models.origin}`));
  await expect(status).toHaveText('ok: wllama');
  expect(await status.getAttribute('data-violations')).toBe('');
});

test("without the bundle's origin in connect-src: a ModelLoadError names wllama.wasm and connect-src, before the model is downloaded", async ({ page }) => {
  const before = models.downloads('tiny.gguf');
  const status = await open(page, policy(models.origin));
  const text = await status.textContent();
  expect(text).toMatch(/^error: ModelLoadError: /);
  expect(text).toContain(`${CDN}/wllama.wasm`);
  expect(text).toContain('connect-src');
  expect(await status.getAttribute('data-retryable')).toBe('false');
  expect(models.downloads('tiny.gguf') - before).toBe(0);
});

test("without the model's origin in connect-src: a ModelLoadError names the model's URL and connect-src", async ({ page }) => {
  const before = models.downloads('tiny.gguf');
  const status = await open(page, policy(CDN));
  const text = await status.textContent();
  expect(text).toMatch(/^error: ModelLoadError: /);
  expect(text).toContain(`${models.origin}/tiny.gguf`);
  expect(text).toContain('connect-src');
  expect(await status.getAttribute('data-retryable')).toBe('false');
  expect(models.downloads('tiny.gguf') - before).toBe(0);
});

test('an engine file the policy refuses: a ModelLoadError names the file and the directive', async ({ page }) => {
  // The bundle and its worker allowed by path, the engines beside them not.
  const files = `${CDN}/tabagent.js ${CDN}/tabagent-testing.js ${CDN}/tabagent-worker.js`;
  const csp = `default-src 'none'; script-src 'self' 'wasm-unsafe-eval' ${files}; worker-src blob: ${files}; connect-src 'self'`;
  await page.goto(`http://127.0.0.1:4176/e2e/pages/csp-fake.html?csp=${encodeURIComponent(csp)}`);
  const status = page.locator('#status');
  await expect(status).toHaveAttribute('data-done', 'true', { timeout: 30_000 });
  const text = await status.textContent();
  expect(text).toMatch(/^error: ModelLoadError: /);
  expect(text).toContain(`${CDN}/fake-engine.js`);
  expect(text).toMatch(/(script|worker)-src/);
});


test("a policy without 'wasm-unsafe-eval' (an extension's default): a ModelLoadError says to add it, before anything is downloaded, for the fake as for a GGUF", async ({ page }) => {
  const noWasm = (csp: string) => csp.replace(" 'wasm-unsafe-eval'", '');
  await page.goto(`http://127.0.0.1:4176/e2e/pages/csp-fake.html?csp=${encodeURIComponent(noWasm(policy(CDN)))}`);
  const fake = page.locator('#status');
  await expect(fake).toHaveAttribute('data-done', 'true', { timeout: 30_000 });
  expect(await fake.textContent()).toMatch(/^error: ModelLoadError: .*'wasm-unsafe-eval'/);

  const before = models.downloads('tiny.gguf');
  const gguf = await open(page, noWasm(policy(`${CDN} ${models.origin}`)));
  expect(await gguf.textContent()).toMatch(/^error: ModelLoadError: .*'wasm-unsafe-eval'/);
  expect(await gguf.getAttribute('data-retryable')).toBe('false');
  expect(models.downloads('tiny.gguf') - before).toBe(0);
});
