// Tool names made from a source's: all different, all valid, in bounded time
// for any list a server may send (MCP names run to 128 characters).
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { transformWithOxc } from 'vite';
import { describe, expect, it } from 'vitest';
import { TOOL_NAME, toolNames } from './tool-names.js';

/** toolNames run in a thread that is ended after `ms`: a loop that never returns fails the test instead of hanging it. */
async function inBoundedThread(names: string[], ms: number): Promise<string[] | 'still running'> {
  const source = readFileSync(new URL('./tool-names.ts', import.meta.url), 'utf8');
  const { code } = await transformWithOxc(source, 'tool-names.ts', { lang: 'ts' });
  const body = `${code.replace(/^export /gm, '')}\nconst { parentPort, workerData } = require('node:worker_threads'); parentPort.postMessage(toolNames(workerData));`;
  const worker = new Worker(body, { eval: true, workerData: names });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve('still running'), ms);
      worker.on('message', (made: string[]) => (clearTimeout(timer), resolve(made)));
      worker.on('error', (error) => (clearTimeout(timer), reject(error)));
    });
  } finally {
    await worker.terminate();
  }
}

describe('toolNames', () => {
  it('keeps valid names, and numbers the names that read the same once made safe', () => {
    expect(toolNames(['files_read', 'files/read', 'files.read'])).toEqual(['files_read', 'files_read_2', 'files_read_3']);
  });

  it('5,000 long names that differ only past the 64th character: each gets its own valid name, in bounded time', { timeout: 30_000 }, async () => {
    const names = Array.from({ length: 5000 }, (_, i) => `${'a'.repeat(64)}.${i}`);
    const made = await inBoundedThread(names, 10_000);
    expect(made).not.toBe('still running');
    expect(new Set(made as string[]).size).toBe(5000);
    expect((made as string[]).every((name) => TOOL_NAME.test(name))).toBe(true);
  });
});
