// `node bench/hop-rows.mjs [rounds]`: only the hop rows of `npm run bench`
// (the floor, the hop overhead in memory and with IndexedDB, through a
// dedicated and a shared worker), side by side in each round, so a change to
// the hop's cost can be measured on a loaded machine in minutes. Run it
// holding the e2e lock (its server takes a fixed port):
//   flock /tmp/tabagent-e2e.lock node bench/hop-rows.mjs 4
import { execFileSync, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { chromium } from 'playwright';
import { findChromium } from '../scripts/find-chromium.mjs';

const ROUNDS = Number(process.argv[2] ?? 4);
const root = new URL('..', import.meta.url).pathname;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const overhead = (r) => median(r.hopTimes.map((t) => t - median(r.baselineHop)));

execFileSync('npx', ['vite', 'build', '--config', 'bench/vite.config.ts'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const server = spawn('npx', ['vite', 'preview', '--config', 'bench/vite.config.ts', '--host', '127.0.0.1'], { cwd: root, stdio: 'ignore', detached: true });
const browser = await chromium.launch({ executablePath: await findChromium(), args: ['--no-sandbox', '--disable-background-networking', '--no-first-run'] });
try {
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
  console.log(`load ${loadavg()[0].toFixed(2)}`);
  console.log('round | floor ms | memory ms | stored ms (× floor) | shared memory ms | shared stored ms (× floor)');
  for (let r = 1; r <= ROUNDS; r++) {
    const floor = median(await call('floor', 40));
    const memory = overhead(await call('hops', 20, 10, false));
    const stored = overhead(await call('hops', 20, 10, true));
    const sharedMemory = overhead(await call('hops', 20, 10, false, 0, true));
    const sharedStored = overhead(await call('hops', 20, 10, true, 0, true));
    const x = (v) => `${v.toFixed(3)} (${(v / floor).toFixed(2)}×)`;
    console.log(`${r} | ${floor.toFixed(3)} | ${memory.toFixed(3)} | ${x(stored)} | ${sharedMemory.toFixed(3)} | ${x(sharedStored)}`);
  }
  console.log(`load ${loadavg()[0].toFixed(2)}`);
} finally {
  await browser.close();
  process.kill(-server.pid);
}
