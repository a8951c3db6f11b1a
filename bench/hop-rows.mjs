// `node bench/hop-rows.mjs [rounds]`: only the hop rows of `npm run bench`
// (the floor, the hop overhead in memory and with IndexedDB, through a
// dedicated and a shared worker, and the same hops written by hand), side by
// side in each round, so a change to the hop's cost can be measured on a
// loaded machine in minutes. Run it
// holding the e2e lock (its server takes a fixed port):
//   flock /tmp/tabagent-e2e.lock node bench/hop-rows.mjs 4
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { openBenchPage } from './bench-page.mjs';

const ROUNDS = Number(process.argv[2] ?? 4);
const root = new URL('..', import.meta.url).pathname;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const overhead = (r) => median(r.hopTimes.map((t) => t - median(r.baselineHop)));

execFileSync('npx', ['vite', 'build', '--config', 'bench/vite.config.ts'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const { call, close } = await openBenchPage();
try {
  console.log(`load ${loadavg()[0].toFixed(2)}`);
  console.log('round | floor ms | memory ms | stored ms (× floor) | by hand: memory ms | by hand: stored ms (× floor) | stored less memory: tabagent, by hand | shared memory ms | shared stored ms (× floor)');
  for (let r = 1; r <= ROUNDS; r++) {
    const floor = median(await call('floor', 40));
    const memory = overhead(await call('hops', 20, 10, false));
    const stored = overhead(await call('hops', 20, 10, true));
    const designMemory = overhead(await call('designHop', 20, 10, false));
    const designStored = overhead(await call('designHop', 20, 10, true));
    const sharedMemory = overhead(await call('hops', 20, 10, false, 0, true));
    const sharedStored = overhead(await call('hops', 20, 10, true, 0, true));
    const x = (v) => `${v.toFixed(3)} (${(v / floor).toFixed(2)}×)`;
    console.log(`${r} | ${floor.toFixed(3)} | ${memory.toFixed(3)} | ${x(stored)} | ${designMemory.toFixed(3)} | ${x(designStored)} | ${(stored - memory).toFixed(3)}, ${(designStored - designMemory).toFixed(3)} | ${sharedMemory.toFixed(3)} | ${x(sharedStored)}`);
  }
  console.log(`load ${loadavg()[0].toFixed(2)}`);
} finally {
  await close();
}
