// `npm run bench`: builds the benchmark page, runs it in headless Chromium
// with the fake model, prints a table and writes bench/results.json.
// Benchmarks are not tests: this exits non-zero only if it could not run.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright';
import { findChromium } from '../scripts/find-chromium.mjs';

const ROUNDS = 5;
const root = new URL('..', import.meta.url).pathname;
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

const median = (xs) => quantile(xs, 0.5);
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  return s[Math.floor(i)] + (s[Math.ceil(i)] - s[Math.floor(i)]) * (i - Math.floor(i));
}
const spread = (xs) => ({ min: Math.min(...xs), median: median(xs), max: Math.max(...xs) });

console.log('Building the package, the script tag and the benchmark page…');
run('npm', ['run', '--silent', 'build']);
run('npx', ['vite', 'build', '--config', 'bench/size.config.ts']);
run('npx', ['vite', 'build', '--config', 'bench/vite.config.ts']);

// Its own process group: npx starts vite as a child, and the whole group must
// end with the run (a server left on the port breaks the next run, or e2e).
const server = spawn('npx', ['vite', 'preview', '--config', 'bench/vite.config.ts', '--host', '127.0.0.1'], { cwd: root, stdio: 'ignore', detached: true });
const executablePath = await findChromium();
if (!executablePath) throw new Error('No Chromium: run `node scripts/find-chromium.mjs --install`, or set CHROMIUM_PATH.');
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
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

  const rounds = { floor: [], overhead: [], overheadP95: [], overheadStore: [], tabagentHop: [], directHop: [], sendOverhead: [], sendOverheadStore: [], deltasPerSecond: [], baselineDeltasPerSecond: [], streamMemoryMs: [], streamStoredMs: [], longFullPer10: [], longPrefillPerHop: [], longVsMinimum: [], latency: [], prefillRatio: [], append10: [], append1000: [], append10000: [], open: [], list: [] };
  // Each hop's overhead: its time through tabagent less the median time of the same model turn driven directly.
  const overheads = (r) => r.hopTimes.map((t) => t - median(r.baselineHop));
  const sendOverheads = (r) => r.sendTimes.map((t, i) => t - r.baselineSend[i]);
  for (let r = 0; r < ROUNDS; r++) {
    process.stdout.write(`Round ${r + 1}/${ROUNDS}…\r`);
    rounds.floor.push(median(await call('floor', 40)));
    const plain = await call('hops', 20, 10, false);
    rounds.overhead.push(median(overheads(plain)));
    rounds.overheadP95.push(quantile(overheads(plain), 0.95));
    rounds.tabagentHop.push(median(plain.hopTimes));
    rounds.directHop.push(median(plain.baselineHop));
    rounds.overheadStore.push(median(overheads(await call('hops', 20, 10, true))));
    rounds.sendOverhead.push(median(sendOverheads(await call('hops', 40, 1, false))));
    rounds.sendOverheadStore.push(median(sendOverheads(await call('hops', 40, 1, true))));
    const stream = await call('stream');
    rounds.deltasPerSecond.push((stream.deltas / stream.ms) * 1000);
    rounds.baselineDeltasPerSecond.push(stream.baselineDeltasPerSecond);
    rounds.latency.push(median(stream.latencies));
    // The same 1,000-token reply at one token per ms, in memory and with drafts kept in IndexedDB, side by side.
    const [paced, stored] = [await call('stream', false, true), await call('stream', true)];
    rounds.streamMemoryMs.push(paced.ms);
    rounds.streamStoredMs.push(stored.ms);
    const prefill = await call('prefill');
    rounds.prefillRatio.push(prefill.reused.filter(Boolean).length / prefill.reused.length);
    const long = await call('longChat');
    rounds.longFullPer10.push((long.fullPrefills / long.hops) * 10);
    rounds.longPrefillPerHop.push(median(long.prefillPerHop));
    rounds.longVsMinimum.push(long.total / long.minimum);
    const appends = await call('appends', 20);
    rounds.append10.push(median(appends[10]));
    rounds.append1000.push(median(appends[1000]));
    rounds.append10000.push(median(appends[10000]));
    const openList = await call('openAndList', 5);
    rounds.open.push(median(openList.open));
    rounds.list.push(median(openList.list));
  }

  const sizes = bundleSizes();
  const fig = Object.fromEntries(Object.entries(rounds).map(([k, v]) => [k, spread(v)]));
  const results = {
    floor_ms_median: fig.floor.median,
    hop_overhead_ms_median: fig.overhead.median,
    hop_overhead_ms_p95: fig.overheadP95.median,
    hop_overhead_with_store_ms_median: fig.overheadStore.median,
    hop_ms_median: fig.tabagentHop.median,
    hop_baseline_ms_median: fig.directHop.median,
    hop_ratio_vs_baseline: fig.tabagentHop.median / fig.directHop.median,
    send_overhead_ms_median: fig.sendOverhead.median,
    send_overhead_with_store_ms_median: fig.sendOverheadStore.median,
    prefill_ratio: fig.prefillRatio.median,
    stream_deltas_per_s: fig.deltasPerSecond.median,
    stream_stored_vs_memory: fig.streamStoredMs.median / fig.streamMemoryMs.median,
    long_chat_full_prefills_per_10_hops: fig.longFullPer10.median,
    long_chat_prefill_tokens_per_hop_median: fig.longPrefillPerHop.median,
    long_chat_prefill_vs_minimum: fig.longVsMinimum.median,
    stream_baseline_deltas_per_s: fig.baselineDeltasPerSecond.median,
    stream_delta_latency_ms_median: fig.latency.median,
    append_ms_at_10: fig.append10.median,
    append_ms_at_1000: fig.append1000.median,
    append_ms_at_10000: fig.append10000.median,
    append_ratio_10k_vs_10: fig.append10000.median / fig.append10.median,
    open_1000_ms: fig.open.median,
    list_1000_ms: fig.list.median,
    page_bundle_gzip_kb: sizes.page,
    script_tag_bundle_gzip_kb: sizes.scriptTag,
    worker_bundle_gzip_kb: sizes.worker,
    fake_engine_gzip_kb: sizes.fakeEngine,
    webllm_in_page_bundle: sizes.webllmInPage,
    chromium_version: browser.version(),
    cores: cpus().length,
    rounds: ROUNDS,
    date: new Date().toISOString(),
  };
  writeFileSync(join(root, 'bench/results.json'), JSON.stringify({ ...results, spread: fig }, null, 2) + '\n');
  console.log(table(fig, results));
} finally {
  await browser.close();
  process.kill(-server.pid);
}

function gzipKb(file) {
  return gzipSync(readFileSync(file), { level: 9 }).length / 1024;
}

/** The page side of the package as an app bundles it (not the worker files), the script-tag bundle, and where WebLLM is. */
function bundleSizes() {
  const built = join(root, 'dist/bench-size');
  const pageFiles = readdirSync(built).filter((f) => f.endsWith('.js')).map((f) => join(built, f));
  const workerFiles = readdirSync(join(built, 'assets')).filter((f) => f.endsWith('.js')).map((f) => join(built, 'assets', f));
  // A string only WebLLM's code contains.
  const webllmMarker = 'MLCEngine';
  const has = (file, marker = webllmMarker) => readFileSync(file, 'utf8').includes(marker);
  // The fake engine and xgrammar (WebLLM bundles its own copy): lazy chunks a WebLLM app never loads.
  const fakeOnly = (file) => !has(file) && (has(file, 'GrammarMatcher') || has(file, 'was scripted to'));
  return {
    page: round(pageFiles.reduce((n, f) => n + gzipKb(f), 0)),
    worker: round(workerFiles.filter((f) => !has(f) && !fakeOnly(f)).reduce((n, f) => n + gzipKb(f), 0)),
    fakeEngine: round(workerFiles.filter(fakeOnly).reduce((n, f) => n + gzipKb(f), 0)),
    scriptTag: round(gzipKb(join(root, 'dist/script-tag/tabagent.js'))),
    webllmInPage: pageFiles.some((f) => has(f)) || has(join(root, 'dist/script-tag/tabagent.js')),
    webllmInWorker: workerFiles.some((f) => has(f)),
  };
}

function round(x, digits = 2) {
  return Number(x.toFixed(digits));
}

function table(fig, results) {
  const ms = (x) => `${x.toFixed(3)} ms`;
  const rows = [
    ['Floor: 2 worker round trips + 1 strict IndexedDB put', fig.floor, ms, ''],
    ['Hop through tabagent (model turn → tool → next request), memory', fig.tabagentHop, ms, ''],
    ['Same model turn driven directly in a worker (baseline)', fig.directHop, ms, ''],
    ['Overhead per hop, median (goal < 1 ms)', fig.overhead, ms, `${results.hop_ratio_vs_baseline.toFixed(2)}× baseline`],
    ['Overhead per hop, p95', fig.overheadP95, ms, ''],
    ['Overhead per hop with IndexedDB (goal < 3 ms)', fig.overheadStore, ms, `${(fig.overheadStore.median / fig.floor.median).toFixed(2)}× floor`],
    ['Overhead per send of one hop (user message, 2 turns, 1 tool), memory', fig.sendOverhead, ms, ''],
    ['Overhead per send of one hop, IndexedDB (4 commits: user message, turn with its call started, results, answer)', fig.sendOverheadStore, ms, `${(fig.sendOverheadStore.median / fig.floor.median).toFixed(2)}× floor`],
    ['Stream: deltas/s to a page consumer (goal ≫ 1,000)', fig.deltasPerSecond, (x) => `${Math.round(x)}/s`, `${(fig.deltasPerSecond.median / fig.baselineDeltasPerSecond.median).toFixed(2)}× in-worker`],
    ['Stream with drafts kept in IndexedDB: time vs in memory, 1,000 tokens at 1 ms (goal ≤ 1.05)', fig.streamStoredMs, (x) => `${Math.round(x)} ms`, `${(fig.streamStoredMs.median / fig.streamMemoryMs.median).toFixed(3)}× memory`],
    ['Stream: in-worker fake model alone (baseline)', fig.baselineDeltasPerSecond, (x) => `${Math.round(x)}/s`, ''],
    ['Stream: latency per delta, worker → page', fig.latency, ms, ''],
    ['Hops after the first that reuse the KV cache, 10 hops (goal 1.0)', fig.prefillRatio, (x) => x.toFixed(3), ''],
    ['Long chat, 200 turns of 1–3 KB tool results, 4096-token window: full re-prefills per 10 hops (goal ≤ 1)', fig.longFullPer10, (x) => x.toFixed(2), ''],
    ['Long chat: prefill tokens per hop, median', fig.longPrefillPerHop, (x) => `${Math.round(x)}`, ''],
    ['Long chat: total prefill vs the least possible (goal ≤ 1.5)', fig.longVsMinimum, (x) => `${x.toFixed(3)}×`, ''],
    ['Append 1 message, chat of 10', fig.append10, ms, ''],
    ['Append 1 message, chat of 1,000', fig.append1000, ms, ''],
    ['Append 1 message, chat of 10,000', fig.append10000, ms, `${results.append_ratio_10k_vs_10.toFixed(2)}× at 10 (goal ≤ 1.5)`],
    ['Open a 1,000-message chat', fig.open, ms, ''],
    ['List 1,000 chats', fig.list, ms, ''],
  ];
  const lines = [
    `Machine: ${results.cores} cores, Chromium ${results.chromium_version}; ${ROUNDS} rounds, each a median of its samples.`,
    '',
    '| Figure | min | median | max | ratio |',
    '|---|---:|---:|---:|---|',
    ...rows.map(([label, s, f, ratio]) => `| ${label} | ${f(s.min)} | ${f(s.median)} | ${f(s.max)} | ${ratio} |`),
    '',
    '| Size (gzipped) | kB |',
    '|---|---:|',
    `| Page-side ES package (without the worker; zod is a peer) (goal < 30) | ${results.page_bundle_gzip_kb} |`,
    `| Worker, without WebLLM and the fake engine (both lazy chunks) | ${results.worker_bundle_gzip_kb} |`,
    `| Fake engine with xgrammar (lazy, loaded only for a fake model) | ${results.fake_engine_gzip_kb} |`,
    `| Script-tag bundle (includes zod as TabAgent.z) | ${results.script_tag_bundle_gzip_kb} |`,
    `| WebLLM in the page bundles | ${results.webllm_in_page_bundle ? 'yes' : 'no (worker chunk only)'} |`,
  ];
  return lines.join('\n');
}
