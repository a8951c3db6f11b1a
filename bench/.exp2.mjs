import { execFileSync, spawn } from 'node:child_process';
import { chromium } from 'playwright';
import { tinyGguf } from '../scripts/tiny-gguf.mjs';
const root = new URL('..', import.meta.url).pathname;
if (!process.env.NOBUILD) execFileSync('npx', ['vite', 'build', '--config', 'bench/vite.config.ts'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
await tinyGguf(root + 'dist/bench/models/tiny-qwen3.gguf');
const server = spawn('npx', ['vite', 'preview', '--config', 'bench/vite.config.ts', '--host', '127.0.0.1'], { cwd: root, stdio: 'ignore', detached: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  page.on('console', m => console.log('console:', m.text()));
  page.on('pageerror', e => console.log('pageerror:', e.message));
  for (let i = 0; ; i++) { try { await page.goto('http://127.0.0.1:4190/'); break; } catch (e) { if (i > 50) throw e; await new Promise(r => setTimeout(r, 200)); } }
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
  const call = (name, ...args) => page.evaluate(([n, a]) => window.bench[n](...a), [name, args]);
  let t = Date.now();
  console.log(JSON.stringify(await call('wllamaSetup')), (Date.now() - t) / 1000);
  for (let r = 0; r < Number(process.env.ROUNDS ?? 2); r++) {
    t = Date.now();
    const out = await call('wllamaRound', ...(process.env.ARGS ?? '2,6,3').split(',').map(Number));
    console.log(JSON.stringify(out, (k, v) => typeof v === 'number' ? Math.round(v * 100) / 100 : v), (Date.now() - t) / 1000);
  }
  await call('wllamaClose');
} finally { await browser.close(); process.kill(-server.pid); }
