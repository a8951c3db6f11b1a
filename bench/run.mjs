// `npm run bench`: builds the benchmark page, runs it in headless Chromium
// with the fake model, then with the real CPU engine (wllama, on a tiny
// generated GGUF) beside wllama driven directly, prints a table and writes
// bench/results.json.
// Benchmarks are not tests: this exits non-zero only if it could not run.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SIZE_BUILD, buildSizeEntry, gzipKb, packageSizes, pageEntry } from '../scripts/bundle-size.mjs';
import { tinyGguf } from '../scripts/tiny-gguf.mjs';
import { openBenchPage } from './bench-page.mjs';
import { treePssMiB } from './process-memory.mjs';

const ROUNDS = 5;
/** Per wllama round, on each side: decode samples (32 tokens each), first-token samples, tool round trips. */
const WLLAMA_SAMPLES = { decode: 6, ttft: 8, hops: 5 };
/** Per round: runs of the same multi-step loop through the AI SDK's streamText on the provider, and through tabagent's own, alternating. */
const AI_SDK_SAMPLES = { runs: 12, hops: 5 };
/** Per round: runs of a server model's tool loop through tabagent, and of its provider called directly, alternating. */
const SERVER_SAMPLES = { runs: 12, hops: 5 };
const root = new URL('..', import.meta.url).pathname;
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

const startedAt = Date.now();
/** Other work on the machine skews every figure: its 1-minute load average is kept with the results. */
const loadAtStart = loadavg()[0];
const median = (xs) => quantile(xs, 0.5);
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  return s[Math.floor(i)] + (s[Math.ceil(i)] - s[Math.floor(i)]) * (i - Math.floor(i));
}
const spread = (xs) => ({ min: Math.min(...xs), median: median(xs), max: Math.max(...xs) });

// `node bench/run.mjs --table`: the last run's table again, from bench/results.json.
if (process.argv.includes('--table')) {
  const { spread: fig, wllama_spread: wfig, ...results } = JSON.parse(readFileSync(join(root, 'bench/results.json'), 'utf8'));
  console.log(table(fig, wfig, results));
  process.exit(0);
}

console.log('Building the package, the script tag and the benchmark page…');
run('npm', ['run', '--silent', 'build']);
buildSizeEntry();
run('npx', ['vite', 'build', '--config', 'bench/vite.config.ts']);
// The tiny Qwen3 GGUF (real tokenizer and template, crafted weights), served with the page.
await tinyGguf(join(root, 'dist/bench/models/tiny-qwen3.gguf'));

const { call, close, chromiumVersion, pid } = await openBenchPage();
try {

  const rounds = { floor: [], overhead: [], overheadP95: [], overheadStore: [], durabilityPaced: [], tabagentHop: [], directHop: [], sendOverhead: [], sendOverheadStore: [], deltasPerSecond: [], baselineDeltasPerSecond: [], streamMemoryMs: [], streamStoredMs: [], longFullPer10: [], longPrefillPerHop: [], longVsMinimum: [], latency: [], prefillRatio: [], append10: [], append1000: [], append10000: [], open: [], list: [], aiSdkStep: [], providerStep: [], ownStep: [], aiSdkOverhead: [], providerOverhead: [], overheadShared: [], overheadStoreShared: [], manyTools: [], designMemory: [], designStored: [], storeShare: [], designShare: [], secondLoadShared: [], secondLoadOwn: [], interleavedHop: [], aloneHop: [], serverStep: [], serverDirect: [], serverOverhead: [] };
  const wllama = { tabagentTps: [], directTps: [], decodeRatio: [], decodeRatioSamePace: [], llamaTps: [], tabagentCallbackUs: [], directCallbackUs: [], tabagentTtft: [], directTtft: [], ttftOverhead: [], ttftOverheadEndToEnd: [], tabagentHop: [], directHop: [], hopOverhead: [], hopOverheadEndToEnd: [], secondTabShared: [], secondTabOwn: [] };
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
    // An app's tools run to dozens (an MCP server's): the same hops with 30 more declared.
    rounds.manyTools.push(median(overheads(await call('hops', 10, 10, false, 0, false, 30))));
    // The same hops written by hand, with no tabagent code (bench/page/design-hop.ts): what the design itself costs here.
    rounds.designMemory.push(median(overheads(await call('designHop', 20, 10, false))));
    rounds.designStored.push(median(overheads(await call('designHop', 20, 10, true))));
    // What keeping the chat adds to a hop (stored less memory), through tabagent and by hand.
    rounds.storeShare.push(rounds.overheadStore.at(-1) - rounds.overhead.at(-1));
    rounds.designShare.push(rounds.designStored.at(-1) - rounds.designMemory.at(-1));
    // The same through a shared worker (createAgent's `shared`), and what a second tab's agent costs to get the model.
    rounds.overheadShared.push(median(overheads(await call('hops', 20, 10, false, 0, true))));
    rounds.overheadStoreShared.push(median(overheads(await call('hops', 20, 10, true, 0, true))));
    rounds.secondLoadShared.push(median(await call('secondLoad', 10, true)));
    rounds.secondLoadOwn.push(median(await call('secondLoad', 10, false)));
    const interleaved = await call('interleavedHops', 10, 5);
    rounds.aloneHop.push(median(interleaved.alone));
    rounds.interleavedHop.push(median(interleaved.together));
    // What keeping the chat costs a hop when the model is slower than a write
    // (as every real one is): paced at one token per ms, IndexedDB less memory, side by side.
    const [pacedStore, pacedMemory] = [await call('hops', 6, 10, true, 1), await call('hops', 6, 10, false, 1)];
    rounds.durabilityPaced.push(median(pacedStore.hopTimes) - median(pacedMemory.hopTimes));
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
    const loop = await call('aiSdkSteps', AI_SDK_SAMPLES.runs, AI_SDK_SAMPLES.hops);
    rounds.aiSdkStep.push(median(loop.sdk));
    rounds.providerStep.push(median(loop.provider));
    rounds.ownStep.push(median(loop.own));
    rounds.aiSdkOverhead.push(median(loop.sdk.map((t, i) => t - loop.own[i])));
    rounds.providerOverhead.push(median(loop.provider.map((t, i) => t - loop.own[i])));
    const served = await call('serverHops', SERVER_SAMPLES.runs, SERVER_SAMPLES.hops);
    rounds.serverStep.push(median(served.tabagent));
    rounds.serverDirect.push(median(served.direct));
    rounds.serverOverhead.push(median(served.tabagent.map((t, i) => t - served.direct[i])));
  }
  // KV reuse across the AI SDK's steps, and across tabagent's hops: the fake's records on, once.
  const reuse = (await call('aiSdkSteps', 4, AI_SDK_SAMPLES.hops, true)).reused;
  // Chrome's built-in model on the Prompt API stand-in: tokens each hop sends its session (counts, not times: once is enough).
  const promptApi = await call('promptApiHops', AI_SDK_SAMPLES.hops);
  const share = (xs) => xs.filter(Boolean).length / xs.length;

  // The real engine: the same GGUF and requests through tabagent and through wllama directly, interleaved sample by sample.
  process.stdout.write('Loading the GGUF through tabagent and in the direct wllama worker…\r');
  const wllamaSetup = await call('wllamaSetup');
  for (let r = 0; r < ROUNDS; r++) {
    process.stdout.write(`wllama round ${r + 1}/${ROUNDS}…                                        \r`);
    const w = await call('wllamaRound', WLLAMA_SAMPLES.decode, WLLAMA_SAMPLES.ttft, WLLAMA_SAMPLES.hops);
    // Overheads: each tabagent sample less the direct sample made next to it.
    const paired = (a, b) => median(a.map((x, i) => x - b[i]));
    wllama.tabagentTps.push(median(w.tabagentTps));
    wllama.directTps.push(median(w.directTps));
    wllama.decodeRatio.push(median(w.tabagentTps) / median(w.directTps));
    wllama.decodeRatioSamePace.push(median(w.paceSeenRatio));
    wllama.llamaTps.push(median(w.directLlamaTps));
    wllama.tabagentCallbackUs.push(median(w.tabagentCallbackUs));
    wllama.directCallbackUs.push(median(w.directCallbackUs));
    wllama.tabagentTtft.push(median(w.tabagentTtft));
    wllama.directTtft.push(median(w.directTtft));
    // Less each side's model part (in its worker: the call to the first text), which varies far more than the overhead.
    wllama.ttftOverhead.push(paired(w.tabagentTtftOutside, w.directTtftOutside));
    wllama.ttftOverheadEndToEnd.push(paired(w.tabagentTtft, w.directTtft));
    wllama.tabagentHop.push(median(w.tabagentHop));
    wllama.directHop.push(median(w.directHop));
    // Less each side's two completions (in its worker, less its own onData).
    wllama.hopOverhead.push(paired(w.tabagentHopOutside, w.directHopOutside));
    wllama.hopOverheadEndToEnd.push(paired(w.tabagentHop, w.directHop));
  }
  await call('wllamaClose');

  // A second tab's memory on the real engine: the browser's processes (PSS)
  // after a second agent joined the first's shared worker, or loaded its own
  // copy in a worker of its own, less before it came; settled a moment each time.
  const settled = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return treePssMiB(pid);
  };
  for (let r = 0; r < ROUNDS && pid !== undefined; r++) {
    process.stdout.write(`Second-tab memory, round ${r + 1}/${ROUNDS}…                  \r`);
    for (const shared of [true, false]) {
      await call('memoryAgent', true);
      const before = await settled();
      const host = await call('memoryAgent', shared);
      if (host !== (shared ? 'shared-worker' : 'worker')) throw new Error(`the second agent runs in a ${host}`);
      const after = await settled();
      await call('memoryClose');
      if (before !== null && after !== null) wllama[shared ? 'secondTabShared' : 'secondTabOwn'].push(after - before);
    }
  }

  const sizes = bundleSizes();
  const pack = packageSizes();
  const fig = Object.fromEntries(Object.entries(rounds).map(([k, v]) => [k, spread(v)]));
  const wfig = Object.fromEntries(Object.entries(wllama).map(([k, v]) => [k, spread(v)]));
  const results = {
    floor_ms_median: fig.floor.median,
    hop_overhead_ms_median: fig.overhead.median,
    hop_overhead_ms_p95: fig.overheadP95.median,
    hop_overhead_with_store_ms_median: fig.overheadStore.median,
    hop_overhead_31_tools_ms_median: fig.manyTools.median,
    design_hop_overhead_ms_median: fig.designMemory.median,
    design_hop_overhead_with_store_ms_median: fig.designStored.median,
    store_share_of_hop_ms_median: fig.storeShare.median,
    design_store_share_of_hop_ms_median: fig.designShare.median,
    shared_hop_overhead_ms_median: fig.overheadShared.median,
    shared_hop_overhead_with_store_ms_median: fig.overheadStoreShared.median,
    shared_second_load_ms_median: fig.secondLoadShared.median,
    shared_second_tab_memory_mib_median: wfig.secondTabShared.median ?? null,
    own_worker_second_tab_memory_mib_median: wfig.secondTabOwn.median ?? null,
    own_worker_second_load_ms_median: fig.secondLoadOwn.median,
    shared_alone_hop_ms_median: fig.aloneHop.median,
    shared_interleaved_hop_ms_median: fig.interleavedHop.median,
    hop_durability_paced_ms_median: fig.durabilityPaced.median,
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
    ai_sdk_step_ms_median: fig.aiSdkStep.median,
    ai_sdk_provider_alone_step_ms_median: fig.providerStep.median,
    ai_sdk_own_loop_step_ms_median: fig.ownStep.median,
    ai_sdk_overhead_per_step_ms_median: fig.aiSdkOverhead.median,
    server_model_hop_ms_median: fig.serverStep.median,
    server_model_direct_hop_ms_median: fig.serverDirect.median,
    server_model_overhead_per_hop_ms_median: fig.serverOverhead.median,
    ai_sdk_provider_alone_overhead_per_step_ms_median: fig.providerOverhead.median,
    ai_sdk_steps_reusing_kv_cache: share(reuse.sdk),
    ai_sdk_provider_alone_steps_reusing_kv_cache: share(reuse.provider),
    ai_sdk_own_loop_hops_reusing_kv_cache: share(reuse.own),
    prompt_api_tokens_sent_per_hop_median: median(promptApi.sent),
    prompt_api_chat_tokens_per_hop_median: median(promptApi.chatTokens),
    prompt_api_messages_sent_per_hop_max: Math.max(...promptApi.messagesPerHop),
    prompt_api_sessions_created: promptApi.sessions,
    page_bundle_gzip_kb: sizes.page,
    page_entry_gzip_kb: sizes.pageEntry,
    page_chunks_gzip_kb: sizes.pageChunks,
    script_tag_bundle_gzip_kb: sizes.scriptTag,
    worker_bundle_gzip_kb: sizes.worker,
    fake_engine_gzip_kb: sizes.fakeEngine,
    webllm_in_page_bundle: sizes.webllmInPage,
    package_tarball_mb: round(pack.tarballMb),
    package_unpacked_mb: round(pack.unpackedMb),
    package_installed_mb: round(pack.installedMb),
    package_installed_packages: pack.installedPackages,
    wllama_decode_tps_tabagent: wfig.tabagentTps.median,
    wllama_decode_tps_direct: wfig.directTps.median,
    wllama_decode_ratio: wfig.decodeRatio.median,
    wllama_decode_ratio_same_model_pace: wfig.decodeRatioSamePace.median,
    wllama_decode_tps_llamacpp_direct: wfig.llamaTps.median,
    wllama_stream_callback_us_tabagent: wfig.tabagentCallbackUs.median,
    wllama_stream_callback_us_direct: wfig.directCallbackUs.median,
    wllama_ttft_ms_tabagent: wfig.tabagentTtft.median,
    wllama_ttft_ms_direct: wfig.directTtft.median,
    wllama_ttft_overhead_ms: wfig.ttftOverhead.median,
    wllama_ttft_overhead_end_to_end_ms: wfig.ttftOverheadEndToEnd.median,
    wllama_hop_ms_tabagent: wfig.tabagentHop.median,
    wllama_hop_ms_direct: wfig.directHop.median,
    wllama_hop_overhead_ms: wfig.hopOverhead.median,
    wllama_hop_overhead_end_to_end_ms: wfig.hopOverheadEndToEnd.median,
    wllama_engine_gzip_kb: sizes.wllamaEngine,
    wllama_wasm_kb: sizes.wllamaWasm,
    wllama_wasm_gzip_kb: sizes.wllamaWasmGzip,
    wllama_in_page_bundle: sizes.wllamaInPage,
    wllama_in_worker_entry: sizes.wllamaInWorker,
    wllama_threads: { tabagent: wllamaSetup.tabagentThreads, direct: wllamaSetup.directThreads },
    wllama_samples_per_round: WLLAMA_SAMPLES,
    chromium_version: chromiumVersion,
    cores: cpus().length,
    rounds: ROUNDS,
    run_seconds: Math.round((Date.now() - startedAt) / 1000),
    load_average_1m: { start: round(loadAtStart), end: round(loadavg()[0]) },
    date: new Date().toISOString(),
  };
  // The Prompt API stand-in's rows are one run of its hops, not rounds: their spread is over those hops.
  fig.promptApiSent = spread(promptApi.sent);
  writeFileSync(join(root, 'bench/results.json'), JSON.stringify({ ...results, spread: fig, wllama_spread: wfig }, null, 2) + '\n');
  console.log(table(fig, wfig, results));
} finally {
  await close();
}

/** The page side of the package as an app bundles it (not the worker files), the script-tag bundle, the wllama engine, and where WebLLM and wllama are. */
function bundleSizes() {
  const built = SIZE_BUILD;
  const pageFiles = readdirSync(built).filter((f) => f.endsWith('.js')).map((f) => join(built, f));
  const workerFiles = readdirSync(join(built, 'assets')).filter((f) => f.endsWith('.js')).map((f) => join(built, 'assets', f));
  // A string only WebLLM's code contains.
  const webllmMarker = 'MLCEngine';
  const has = (file, marker = webllmMarker) => readFileSync(file, 'utf8').includes(marker);
  // The fake engine and xgrammar (WebLLM bundles its own copy): lazy chunks a WebLLM app never loads.
  const fakeOnly = (file) => !has(file) && (has(file, 'GrammarMatcher') || has(file, 'was scripted to'));
  // A string only wllama's code contains (scripts/build-package.mjs checks the worker for it too).
  const wllamaMarker = 'wllamaStart';
  const hasWllama = (file) => has(file, wllamaMarker);
  const scriptTag = (name) => join(root, 'dist/script-tag', name);
  const wasm = readFileSync(scriptTag('wllama.wasm'));
  const { files: entryFiles, kb: entryKb } = pageEntry();
  return {
    page: round(pageFiles.reduce((n, f) => n + gzipKb(f), 0)),
    // What an app loads at createAgent (the entry and the chunks it imports statically), apart from the chunks loaded when a feature is used.
    pageEntry: round(entryKb),
    pageChunks: round(pageFiles.filter((f) => !entryFiles.includes(f)).reduce((n, f) => n + gzipKb(f), 0)),
    worker: round(workerFiles.filter((f) => !has(f) && !fakeOnly(f) && !hasWllama(f)).reduce((n, f) => n + gzipKb(f), 0)),
    wllamaEngine: round(gzipKb(scriptTag('wllama-engine.js'))),
    wllamaWasm: round(wasm.length / 1024),
    wllamaWasmGzip: round(gzipSync(wasm, { level: 9 }).length / 1024),
    // The page: the app's page bundle and the script tag. The worker entry: the prebuilt worker, and the app build's copy of it.
    wllamaInPage: pageFiles.some(hasWllama) || hasWllama(scriptTag('tabagent.js')),
    wllamaInWorker: hasWllama(scriptTag('tabagent-worker.js')) || workerFiles.filter((f) => /tabagent-worker/.test(f)).some(hasWllama),
    fakeEngine: round(workerFiles.filter(fakeOnly).reduce((n, f) => n + gzipKb(f), 0)),
    scriptTag: round(gzipKb(join(root, 'dist/script-tag/tabagent.js'))),
    webllmInPage: pageFiles.some((f) => has(f)) || has(join(root, 'dist/script-tag/tabagent.js')),
    webllmInWorker: workerFiles.some((f) => has(f)),
  };
}

function round(x, digits = 2) {
  return Number(x.toFixed(digits));
}

function table(fig, wfig, results) {
  const ms = (x) => `${x.toFixed(3)} ms`;
  const tps = (x) => `${x.toFixed(2)}/s`;
  const us = (x) => `${x.toFixed(1)} µs`;
  const mib = (x) => `${x.toFixed(1)} MiB`;
  const rows = [
    ['Floor: 2 worker round trips + 1 strict IndexedDB put', fig.floor, ms, ''],
    ['Hop through tabagent (model turn → tool → next request), memory', fig.tabagentHop, ms, ''],
    ['Same model turn driven directly in a worker (baseline)', fig.directHop, ms, ''],
    ['Overhead per hop, median (goal < 1 ms)', fig.overhead, ms, `${results.hop_ratio_vs_baseline.toFixed(2)}× baseline`],
    ['Overhead per hop, p95', fig.overheadP95, ms, ''],
    ['Overhead per hop with IndexedDB (goal < 3 ms)', fig.overheadStore, ms, `${(fig.overheadStore.median / fig.floor.median).toFixed(2)}× floor`],
    ['Overhead per hop, 31 tools declared (30 beside echo, about 13 KB of declarations), memory', fig.manyTools, ms, `${(fig.manyTools.median / fig.overhead.median).toFixed(2)}× with 1`],
    ['The same hops written by hand, no tabagent code (a worker round trip a turn), overhead, memory', fig.designMemory, ms, ''],
    ['… with IndexedDB (the turn with its call marked started committed before the handler, the results in the next task; both strict): the design\'s least', fig.designStored, ms, `${(fig.designStored.median / fig.floor.median).toFixed(2)}× floor`],
    ['IndexedDB\'s share of a hop (stored less memory, per round), through tabagent', fig.storeShare, ms, `${(fig.storeShare.median / fig.designShare.median).toFixed(2)}× by hand`],
    ['IndexedDB\'s share of a hop, by hand', fig.designShare, ms, ''],
    ['Shared worker: overhead per hop, memory (goal < 1 ms)', fig.overheadShared, ms, ''],
    ['Shared worker: overhead per hop with IndexedDB', fig.overheadStoreShared, ms, `${(fig.overheadStoreShared.median / fig.floor.median).toFixed(2)}× floor`],
    ['Second agent on a loaded model: joins the shared worker (createAgent to ready)', fig.secondLoadShared, ms, `${(fig.secondLoadShared.median / fig.secondLoadOwn.median).toFixed(2)}× own worker`],
    ['Second agent on a loaded model: a worker and a load of its own (the fake: no weights)', fig.secondLoadOwn, ms, ''],
    ...(!Number.isFinite(wfig.secondTabShared?.median) ? [] : [
      ['Second tab\'s memory, wllama on the tiny GGUF: joins the shared worker (browser PSS after less before)', wfig.secondTabShared, mib, ''],
      ['Second tab\'s memory, wllama on the tiny GGUF: a worker and a load of its own', wfig.secondTabOwn, mib, ''],
    ]),
    ['Shared model, function scripts: hop time of one tab alone', fig.aloneHop, ms, ''],
    ['Shared model, two tabs at once: hop time, each queued behind the other\'s', fig.interleavedHop, ms, `${(fig.interleavedHop.median / fig.aloneHop.median).toFixed(2)}× alone`],
    ['IndexedDB per hop, model at 1 token/ms: hop stored less hop in memory (the results write overlaps the next request; the turn and its started calls land before any handler)', fig.durabilityPaced, ms, `${(fig.durabilityPaced.median / fig.floor.median).toFixed(2)}× floor`],
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
    [`AI SDK: streamText through tabagent/ai-sdk, ${AI_SDK_SAMPLES.hops} tool steps and an answer, per model call`, fig.aiSdkStep, ms, `steps after the first reusing the KV cache: ${results.ai_sdk_steps_reusing_kv_cache.toFixed(3)}`],
    ['AI SDK: the provider alone (its doStream in a plain loop, the prompt kept by hand), per model call', fig.providerStep, ms, `steps reusing the KV cache: ${results.ai_sdk_provider_alone_steps_reusing_kv_cache.toFixed(3)}`],
    ['AI SDK: the same loop in tabagent (chat.sendStream), per model call', fig.ownStep, ms, `hops reusing the KV cache: ${results.ai_sdk_own_loop_hops_reusing_kv_cache.toFixed(3)}`],
    [`Prompt API stand-in: tokens sent per tool hop, ${AI_SDK_SAMPLES.hops} hops (goal: only the new turn)`, fig.promptApiSent, (x) => `${x}`, `${results.prompt_api_messages_sent_per_hop_max} message(s) a hop, ${results.prompt_api_sessions_created} session; the whole chat would be ${results.prompt_api_chat_tokens_per_hop_median} tokens a hop`],
    ['AI SDK: overhead per step, streamText on the provider less tabagent\'s loop, paired', fig.aiSdkOverhead, ms, `${(fig.aiSdkStep.median / fig.ownStep.median).toFixed(2)}× tabagent's loop`],
    ['AI SDK: overhead per step, the provider alone less tabagent\'s loop, paired', fig.providerOverhead, ms, `${(fig.providerStep.median / fig.ownStep.median).toFixed(2)}× tabagent's loop`],
    [`Server model: a hop through tabagent (chat.send, ${SERVER_SAMPLES.hops} tool hops and an answer, the provider answering at once), per model call`, fig.serverStep, ms, ''],
    ['Server model: the provider called directly (its doStream in a plain loop, the prompt kept by hand), per model call', fig.serverDirect, ms, ''],
    ['Server model: tabagent\'s overhead per hop, paired', fig.serverOverhead, ms, `${(fig.serverStep.median / fig.serverDirect.median).toFixed(2)}× the provider alone`],
    ['wllama (real engine, tiny GGUF): decode through tabagent, page wall clock from first to last visible token', wfig.tabagentTps, tps, ''],
    ['wllama: decode, wllama driven directly in a worker (baseline), timed the same way', wfig.directTps, tps, `llama.cpp's own count: ${results.wllama_decode_tps_llamacpp_direct.toFixed(1)}/s`],
    ['wllama: decode through tabagent ÷ direct, per round (goal ≥ 0.97)', wfig.decodeRatio, (x) => `${x.toFixed(3)}×`, ''],
    ['wllama: decode through tabagent ÷ direct at the same model pace (each side: the worker\'s pace, first to last text less its onData, over the page\'s), per pair', wfig.decodeRatioSamePace, (x) => `${x.toFixed(4)}×`, ''],
    ['wllama: per streamed piece, the onData that calls wllama: tabagent (scanner, posting)', wfig.tabagentCallbackUs, us, ''],
    ['wllama: per streamed piece, the onData that calls wllama: direct (posting)', wfig.directCallbackUs, us, ''],
    ['wllama: time to first token through tabagent (send → first partial object)', wfig.tabagentTtft, ms, ''],
    ['wllama: time to first token direct (request posted → first piece on the page)', wfig.directTtft, ms, ''],
    ['wllama: first-token overhead, each side less its model time (goal ≤ 5 ms)', wfig.ttftOverhead, ms, ''],
    ['wllama: first-token overhead, end to end (model time not taken out)', wfig.ttftOverheadEndToEnd, ms, ''],
    ['wllama: hop through tabagent (tool-call turn → tool → next completion ends)', wfig.tabagentHop, ms, ''],
    ['wllama: the same two completions driven directly', wfig.directHop, ms, `${(wfig.tabagentHop.median / wfig.directHop.median).toFixed(3)}× direct`],
    ['wllama: overhead per hop, each side less its model time', wfig.hopOverhead, ms, ''],
    ['wllama: overhead per hop, end to end (model time not taken out)', wfig.hopOverheadEndToEnd, ms, ''],
  ];
  const lines = [
    `Machine: ${results.cores} cores, Chromium ${results.chromium_version}; ${ROUNDS} rounds, each a median of its samples; ran in ${results.run_seconds} s; 1-minute load average ${results.load_average_1m.start} at the start, ${results.load_average_1m.end} at the end.`,
    '',
    '| Figure | min | median | max | ratio |',
    '|---|---:|---:|---:|---|',
    ...rows.map(([label, s, f, ratio]) => `| ${label} | ${f(s.min)} | ${f(s.median)} | ${f(s.max)} | ${ratio} |`),
    '',
    '| Size (gzipped) | kB |',
    '|---|---:|',
    `| Page-side ES package, all of it (without the worker; zod is a peer) | ${results.page_bundle_gzip_kb} |`,
    `| … of it what loads at createAgent: the entry and its static imports (goal ≤ 30) | ${results.page_entry_gzip_kb} |`,
    `| … of it chunks loaded when a feature is used (model list, partial objects, chat export and import, the GGUF list, the MCP client with OAuth, WebMCP) | ${results.page_chunks_gzip_kb} |`,
    `| Worker, without WebLLM, wllama and the fake engine (lazy chunks) | ${results.worker_bundle_gzip_kb} |`,
    `| Fake engine with xgrammar (lazy, loaded only for a fake model) | ${results.fake_engine_gzip_kb} |`,
    `| Script-tag bundle (includes zod as TabAgent.z) | ${results.script_tag_bundle_gzip_kb} |`,
    `| WebLLM in the page bundles | ${results.webllm_in_page_bundle ? 'yes' : 'no (worker chunk only)'} |`,
    `| wllama engine, JS (lazy, loaded only for a GGUF model; includes the Jinja template engine) | ${results.wllama_engine_gzip_kb} |`,
    `| wllama WebAssembly (lazy, beside its engine; ${results.wllama_wasm_kb} kB raw) | ${results.wllama_wasm_gzip_kb} |`,
    `| wllama in the page bundles | ${results.wllama_in_page_bundle ? 'yes' : 'no'} |`,
    `| wllama in the worker entry | ${results.wllama_in_worker_entry ? 'yes' : 'no (its own lazy file)'} |`,
    '',
    '| Package | MB |',
    '|---|---:|',
    `| Tarball (\`npm pack\`) | ${results.package_tarball_mb} |`,
    `| … unpacked | ${results.package_unpacked_mb} |`,
    `| Installed in a fresh app: tabagent and its dependencies (${results.package_installed_packages.join(', ')}; zod, a peer, not counted) | ${results.package_installed_mb} |`,
  ];
  return lines.join('\n');
}
