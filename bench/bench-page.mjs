// The bench page, served and opened in Chromium: `npm run bench` and
// bench/hop-rows.mjs both measure through it. The page must be built
// (bench/vite.config.ts) first.
import { spawn } from 'node:child_process';
import { chromium } from 'playwright';
import { findChromium } from '../scripts/find-chromium.mjs';
import { browserPid } from './process-memory.mjs';

const root = new URL('..', import.meta.url).pathname;

/** Serve and open the bench page; `call(name, ...args)` runs `window.bench[name]` there; `close()` ends the browser and the server; `pid`: the browser's process. */
export async function openBenchPage() {
  // Its own process group: npx starts vite as a child, and the whole group must
  // end with the run (a server left on the port breaks the next run, or e2e).
  const server = spawn('npx', ['vite', 'preview', '--config', 'bench/vite.config.ts', '--host', '127.0.0.1'], { cwd: root, stdio: 'ignore', detached: true });
  const close = async () => {
    await browser?.close();
    process.kill(-server.pid);
  };
  let browser;
  try {
    const executablePath = await findChromium();
    if (!executablePath) throw new Error('No Chromium: run `node scripts/find-chromium.mjs --install`, or set CHROMIUM_PATH.');
    browser = await chromium.launch({
      executablePath,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const page = await browser.newPage();
    for (let i = 0; ; i++) {
      try {
        await page.goto('http://127.0.0.1:4190/');
        break;
      } catch (error) {
        if (i > 50) throw error;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    const call = (name, ...args) => page.evaluate(([n, a]) => window.bench[n](...a), [name, args]);
    return { call, close, chromiumVersion: browser.version(), pid: browserPid() };
  } catch (error) {
    await close();
    throw error;
  }
}
