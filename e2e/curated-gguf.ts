// The curated GGUF (Qwen2.5-0.5B-Instruct-Q4_K_M) answered, at its Hugging
// Face URL, with the tiny GGUF the tests generate, so the real wllama runs it
// and nothing leaves this machine.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';

export const TINY = 'dist/e2e/models/tiny-qwen3.gguf';
export const GGUF_ID = 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF';
export const GGUF_URL = 'https://huggingface.co/bartowski/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf';
/** wllama reads the file's Git LFS pointer (its sha256) beside the file itself. */
export const GGUF_POINTER = GGUF_URL.replace('/resolve/', '/raw/');

/** Serve the tiny GGUF for the curated model's URL; refuse anything else off this machine. Returns what was asked for. */
export async function offline(page: Page): Promise<string[]> {
  const body = await readFile(TINY);
  const external: string[] = [];
  await page.context().route(/^https?:\/\/(?!127\.0\.0\.1)/, async (route) => {
    const url = route.request().url();
    external.push(`${route.request().method()} ${url}`);
    if (url === GGUF_URL) return route.fulfill({ status: 200, body, headers: { 'content-type': 'application/octet-stream', 'content-length': String(body.length) } });
    return route.abort();
  });
  return external;
}
