// The package as users install it: the `npm pack` tarball in a fresh app
// (e2e/packed-app), built by Vite and by webpack 5 with their default
// configurations, run in Vite's dev server, and type-checked with skipLibCheck
// off. Built by scripts/packed-apps.mjs (npm run build:packed-apps).
import { execFile, spawn } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { PACKED_AI_SDK_APP_DIR, PACKED_APP_DIR, PACKED_APPS_OUT } from '../scripts/packed-apps.mjs';

/** Strings only WebLLM's code contains. */
const WEBLLM = ['MLCEngine', 'prebuiltAppConfig'];
const hasWebLLM = (code: string) => WEBLLM.some((marker) => code.includes(marker));

/** Open the app, wait for its tool round trip, and say which files it has loaded (so far, for `requests()`). */
async function runApp(page: Page, url: string) {
  const errors: string[] = [];
  const requested: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requested.push(r.url()));
  const worker = page.waitForEvent('worker');
  await page.goto(url);
  // The fake engine compiles its grammar checker (xgrammar, WebAssembly) first: seconds on a busy machine.
  await expect(page.locator('#status')).toHaveText('ok: It is 42. (42)', { timeout: 20_000 });
  expect(errors).toEqual([]);
  const workerUrl = new URL((await worker).url());
  // The page names the engines' files, as its bundler named them, in the worker URL's hash.
  const engines = new URLSearchParams(workerUrl.hash.slice(1));
  return { workerUrl, webllmUrl: engines.get('webllm'), fakeUrl: engines.get('fake'), requests: () => requested.map((u) => u.replace(/#.*/, '')) };
}

for (const bundler of ['vite', 'webpack'] as const) {
  const origin = `http://127.0.0.1:${bundler === 'vite' ? 4178 : 4179}`;
  const built = join(PACKED_APPS_OUT, bundler);

  test(`${bundler}, default config: the packed tarball runs a tool round trip, and the fake model's worker has no WebLLM`, async ({ page }) => {
    const { workerUrl, webllmUrl, fakeUrl, requests } = await runApp(page, `${origin}/`);
    const requested = requests();
    const workerFile = join(built, workerUrl.pathname);
    const workerCode = await readFile(workerFile, 'utf8');
    expect(hasWebLLM(workerCode), 'WebLLM in the worker').toBe(false);
    // ~80 kB; WebLLM inlined into it would be ~6 MB.
    expect((await stat(workerFile)).size).toBeLessThan(200_000);
    // WebLLM is in the build, a file of its own, for WebLLM models, and this app never fetched it.
    expect(webllmUrl).toBeTruthy();
    expect(hasWebLLM(await readFile(join(built, new URL(webllmUrl!).pathname), 'utf8'))).toBe(true);
    expect(requested).not.toContain(webllmUrl);
    expect(requested).toContain(fakeUrl);
    // Nothing the page or the worker loaded has WebLLM in it.
    const files = (await readdir(built, { recursive: true })).map((f) => `/${f}`);
    for (const url of requested) {
      const path = new URL(url).pathname;
      if (files.includes(path) && path.endsWith('.js')) expect(hasWebLLM(await readFile(join(built, path), 'utf8')), path).toBe(false);
    }
  });

  test(`${bundler}, default config: the worker loads WebLLM from its own file when a WebLLM model needs it`, async ({ page }) => {
    const { webllmUrl, requests } = await runApp(page, `${origin}/`);
    expect(requests()).not.toContain(webllmUrl);
    // Asking WebLLM's cache about a prebuilt model loads WebLLM in the worker (and no weights).
    const cached = await page.evaluate(() => (window as unknown as { isModelCached(id: string): Promise<boolean> }).isModelCached('Qwen2.5-0.5B-Instruct-q4f32_1-MLC'));
    expect(cached).toBe(false);
    expect(requests()).toContain(webllmUrl);
  });
}

test("Vite's dev server runs the installed package with no source-map warnings", async ({ page }) => {
  // Plain output: Playwright sets FORCE_COLOR, which would outvote NO_COLOR.
  const { FORCE_COLOR: _, ...env } = process.env;
  const server = spawn(join(PACKED_APP_DIR, 'node_modules/.bin/vite'), ['--host', '127.0.0.1', '--port', '4180', '--strictPort'], {
    cwd: PACKED_APP_DIR,
    env: { ...env, NO_COLOR: '1' },
  });
  let output = '';
  server.stdout.on('data', (d) => (output += d));
  server.stderr.on('data', (d) => (output += d));
  try {
    await expect.poll(() => output, { timeout: 15_000 }).toContain('ready in');
    const { webllmUrl, requests } = await runApp(page, 'http://127.0.0.1:4180/');
    expect(requests()).not.toContain(webllmUrl);
    expect(output).not.toContain('Sourcemap');
    expect(output).not.toMatch(/error|warn/i);
  } finally {
    server.kill();
  }
});

test('the app type-checks against the packed declarations with skipLibCheck off (no WebLLM types in them)', async () => {
  const tsc = join(process.cwd(), 'node_modules/.bin/tsc');
  // e2e/packed-app/tsconfig.json: strict, skipLibCheck false; it rejects on any error.
  await promisify(execFile)(tsc, ['-p', PACKED_APP_DIR]);
  const esm = join(PACKED_APP_DIR, 'node_modules/tabagent/dist/esm');
  for (const file of (await readdir(esm, { recursive: true })).filter((f) => f.endsWith('.d.ts'))) {
    expect(await readFile(join(esm, file), 'utf8'), file).not.toMatch(/(from|import\()\s*['"]@mlc-ai\//);
  }
});

test('an install brings no Node-only package and nothing of the MCP SDK: the package ships its MCP client prebuilt', async () => {
  const installed = await readdir(join(PACKED_APP_DIR, 'node_modules'));
  const scoped = (await Promise.all(installed.filter((n) => n.startsWith('@')).map(async (s) => (await readdir(join(PACKED_APP_DIR, 'node_modules', s))).map((n) => `${s}/${n}`)))).flat();
  const packages = [...installed.filter((n) => !n.startsWith('@') && !n.startsWith('.')), ...scoped];
  for (const nodeOnly of ['cross-spawn', 'eventsource', 'jose', '@modelcontextprotocol/client', '@modelcontextprotocol/core']) expect(packages, nodeOnly).not.toContain(nodeOnly);
  const own = JSON.parse(await readFile(join(PACKED_APP_DIR, 'node_modules/tabagent/package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
  expect(Object.keys(own.dependencies).sort()).toEqual(['@cfworker/json-schema', 'comlink', 'idb', 'jsonrepair']);
  // The license package.json declares, and the version CHANGELOG's newest entry names.
  expect(await readFile(join(PACKED_APP_DIR, 'node_modules/tabagent/LICENSE'), 'utf8')).toContain('MIT License');
  const changelog = await readFile(join(PACKED_APP_DIR, 'node_modules/tabagent/CHANGELOG.md'), 'utf8');
  expect(changelog.match(/^## (\S+)/m)?.[1]).toBe(own.version);
});

/** A string the AI SDK's code holds (its errors' marker, in `ai` and `@ai-sdk/provider`). */
const AI_SDK = 'vercel.ai.error';

test('an app that does not import tabagent/ai-sdk installs and loads nothing of the AI SDK', async ({ page }) => {
  // npm installs no optional peer: the tarball's peerDependenciesMeta marks `ai` and `@ai-sdk/provider` optional.
  const installed = await readdir(join(PACKED_APP_DIR, 'node_modules'));
  expect(installed).not.toContain('ai');
  expect(installed).not.toContain('@ai-sdk');
  const manifest = JSON.parse(await readFile(join(PACKED_APP_DIR, 'node_modules/tabagent/package.json'), 'utf8'));
  expect(manifest.peerDependenciesMeta).toEqual({ ai: { optional: true }, '@ai-sdk/provider': { optional: true } });
  expect(Object.keys(manifest.dependencies)).not.toContain('ai');
  // Neither build holds any of it, and the page loads none of it.
  for (const bundler of ['vite', 'webpack']) {
    const built = join(PACKED_APPS_OUT, bundler);
    for (const file of (await readdir(built, { recursive: true })).filter((f) => f.endsWith('.js') && !f.startsWith('ai-sdk/'))) {
      expect(await readFile(join(built, file), 'utf8'), `${bundler}/${file}`).not.toContain(AI_SDK);
    }
  }
  const { requests } = await runApp(page, 'http://127.0.0.1:4178/');
  expect(requests().filter((url) => /ai-sdk/.test(url))).toEqual([]);
});

test('an AI SDK app on the packed tabagent/ai-sdk: generateText runs a tool loop through the provider, and it type-checks with skipLibCheck off', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('http://127.0.0.1:4178/ai-sdk/');
  await expect(page.locator('#status')).toHaveText('ok: It is 42. (2 steps, 42, cache reused)', { timeout: 20_000 });
  expect(errors).toEqual([]);
  // The AI SDK is in this build (the marker the other app's test looks for is real).
  const built = join(PACKED_APPS_OUT, 'vite/ai-sdk');
  const code = await Promise.all((await readdir(built, { recursive: true })).filter((f) => f.endsWith('.js')).map((f) => readFile(join(built, f), 'utf8')));
  expect(code.some((c) => c.includes(AI_SDK))).toBe(true);
  const tsc = join(process.cwd(), 'node_modules/.bin/tsc');
  await promisify(execFile)(tsc, ['-p', PACKED_AI_SDK_APP_DIR]);
});
