// `fallback` as users get it: the packed tarball in a fresh app (its Vite
// build) and the script-tag bundle, in Chromium without WebGPU (the
// `chromium` project) and with a software adapter that has no shader-f16 (the
// `webgpu` project). The WebLLM model cannot run in either, so the agent must
// load the GGUF instead, before WebLLM downloads anything. The curated GGUF's
// Hugging Face URL is answered with the tiny GGUF the tests generate, so the
// real wllama engine runs it.
import { expect, test } from '@playwright/test';
import { GGUF_URL, GGUF_POINTER, offline } from './curated-gguf.js';


test.describe.configure({ timeout: 90_000 });


// The webpack build holds the same package files as the Vite one (package.spec runs both): not run again here,
// each case being a real wllama load.
const pages = {
  'packed tarball, Vite': 'http://127.0.0.1:4178/?case=fallback',
  'script tag': 'http://127.0.0.1:4176/e2e/pages/fallback.html',
};

for (const [name, url] of Object.entries(pages)) {
  test(`${name}: a WebLLM model this browser cannot run falls back to the GGUF on the CPU`, async ({ page }, testInfo) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const external = await offline(page);
    await page.goto(url);
    const status = page.locator('#status');
    await expect(status).not.toHaveText('loading', { timeout: 80_000 });
    expect(await status.textContent()).toBe('ok: wllama Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF 1 step');
    // The GGUF was fetched; WebLLM fetched nothing (it checks the GPU before any download).
    expect(external).toContain(`GET ${GGUF_URL}`);
    const others = external.filter((r) => !r.endsWith(GGUF_URL) && !r.endsWith(GGUF_POINTER));
    expect(others, `requests off this machine in the ${testInfo.project.name} project`).toEqual([]);
    expect(errors).toEqual([]);
  });
}
