// Benchmarks that run in the page. Each returns raw samples; bench/run.mjs
// turns them into figures, rounds and the table.
import { openDB } from 'idb';
import { z } from 'zod';
import { createAgent, tool, type Agent, type ToolEntry } from '../../src/index.js';
import { IdbChatStore } from '../../src/store/idb-chat-store.js';
import type { ChatRecord } from '../../src/store/records.js';
import { fakeModel, toolCallText } from '../../src/testing/index.js';
import type { EngineRequest } from '../../src/worker/engine.js';
import baselineUrl from './baseline-worker.ts?worker&url';
import timedWorkerUrl from './timed-worker.ts?worker&url';
import { noteWorkers, wllamaBench } from './wllama.js';
import { aiSdkBench } from './ai-sdk.js';
import { promptApiBench } from './prompt-api.js';
import { serverBench } from './server-model.js';
import { secondTabBench } from './second-tab.js';
import { designHops } from './design-hop.js';

const CALL = toolCallText('echo', { text: 'hello world' });
const FINAL = 'Done: the tool said hello world.';
const echo = tool({ name: 'echo', description: 'Echo a text', input: z.object({ text: z.string() }), run: ({ text }) => ({ text }) });
/** Echo and `more` tools beside it, each with a schema of a few fields, as an app with an MCP server declares. */
const toolList = (more: number): ToolEntry[] => [
  echo,
  ...Array.from({ length: more }, (_, i) =>
    tool({
      name: `search_documents_${i}`,
      description: 'Search the user documents by a query and return the best matching passages with their titles and links.',
      input: z.object({ query: z.string().describe('What to search for'), limit: z.number().int().min(1).max(50).optional().describe('How many results'), after: z.string().optional().describe('Only documents after this date (YYYY-MM-DD)') }),
      run: () => ({ passages: [] }),
    }),
  ),
];
class Baseline {
  #worker = new Worker(baselineUrl, { type: 'module' });
  #next = 0;
  call<T>(request: Record<string, unknown>): Promise<T> {
    const id = ++this.#next;
    return new Promise((resolve) => {
      const listen = (event: MessageEvent) => {
        if (event.data?.id !== id) return;
        this.#worker.removeEventListener('message', listen);
        resolve(event.data as T);
      };
      this.#worker.addEventListener('message', listen);
      this.#worker.postMessage({ id, ...request });
    });
  }
  close() {
    this.#worker.terminate();
  }
}

const now = () => performance.now();
const dbName = (label: string) => `bench-${label}-${crypto.randomUUID()}`;

const WARMUP = 5;
/** A window for many declared tools (30 take about 3,300 tokens). */
const WIDE = 16384;

/**
 * Sends of `hopsPerSend` hops (model → tool → model) each, through tabagent,
 * interleaved with the same scripted output driven directly in a worker.
 * Returns each hop's time (from one model start to the next: the model's
 * turn, parsing, validation, the tool, persistence, the next request), each
 * send's time, and the baseline's time per generation and per send.
 */
async function hops(sends: number, hopsPerSend: number, store: boolean, tokenDelayMs = 0, shared = false, moreTools = 0) {
  const turns = [...Array<string>(hopsPerSend).fill(CALL), FINAL];
  const tools = toolList(moreTools);
  const requests = await engineRequests(turns, hopsPerSend, tools);
  const script = Array.from({ length: sends + WARMUP }, () => turns).flat();
  // A list script runs in the worker, as a real model does; records off, as a real model sends none.
  const agent = await createAgent({ model: fakeModel(script, { recordRequests: false, tokenDelayMs, ...(moreTools ? { contextWindow: WIDE } : {}) }), storage: store ? { dbName: dbName('hops') } : false, shared });
  if (shared && (await agent.ready).host !== 'shared-worker') throw new Error('the model is not in a shared worker');
  const baseline = new Baseline();
  const hopTimes: number[] = [];
  const sendTimes: number[] = [];
  const baselineHop: number[] = [];
  const baselineSend: number[] = [];
  for (let i = -WARMUP; i < sends; i++) {
    const chat = await agent.newChat({ tools, maxToolHops: hopsPerSend });
    const starts: number[] = [];
    const off = chat.on('model-start', () => starts.push(now()));
    const started = now();
    const reply = await chat.send('Say hello');
    const ms = now() - started;
    off();
    if (reply.stats.hops !== hopsPerSend) throw new Error(`a send made ${reply.stats.hops} hops, not ${hopsPerSend}`);
    const base = await baseline.call<{ ms: number; each: number[] }>({ kind: 'generate', outputs: turns, requests, tokenDelayMs });
    if (i < 0) continue;
    sendTimes.push(ms);
    baselineSend.push(base.ms);
    for (let k = 0; k < hopsPerSend; k++) {
      hopTimes.push(starts[k + 1]! - starts[k]!);
      baselineHop.push(base.each[k]!);
    }
  }
  agent.close();
  baseline.close();
  return { hopTimes, sendTimes, baselineHop, baselineSend };
}

/**
 * The same hops written by hand with no tabagent code (design-hop.ts), beside
 * the same baseline: what the design itself costs on this machine.
 */
async function designHop(sends: number, hopsPerSend: number, store: boolean) {
  const turns = [...Array<string>(hopsPerSend).fill(CALL), FINAL];
  const requests = await engineRequests(turns, hopsPerSend);
  const worker = new Baseline();
  const baseline = new Baseline();
  const hopTimes: number[] = [];
  const baselineHop: number[] = [];
  for (let i = -WARMUP; i < sends; i++) {
    const times = await designHops(worker, turns, requests, store, dbName('design'));
    const base = await baseline.call<{ each: number[] }>({ kind: 'generate', outputs: turns, requests });
    if (i < 0) continue;
    hopTimes.push(...times);
    baselineHop.push(...base.each.slice(0, hopsPerSend));
  }
  worker.close();
  baseline.close();
  return { hopTimes, baselineHop };
}

/**
 * The engine requests one send of these turns makes (each conversation as the
 * engine gets it, with its grammar), recorded by a fake model, for the
 * baseline to make the same requests: the model's own work (the template, the
 * KV-cache check, the grammar) is then on both sides, and the overhead is
 * tabagent's alone.
 */
async function engineRequests(turns: string[], hopsPerSend: number, tools: ToolEntry[] = [echo]): Promise<EngineRequest[]> {
  const recorder = fakeModel(turns, tools.length > 1 ? { contextWindow: WIDE } : {});
  const agent = await createAgent({ model: recorder, storage: false });
  await (await agent.newChat({ tools, maxToolHops: hopsPerSend })).send('Say hello');
  agent.close();
  return recorder.requests.map((r) => ({ messages: r.messages, ...(r.responseFormat ? { response_format: r.responseFormat } : {}) }));
}

/**
 * A second agent on a model another agent in this origin holds: with
 * `shared`, it joins the loaded one in the shared worker; without, it starts
 * a worker of its own and loads its own copy. createAgent to ready, in ms.
 */
async function secondLoad(samples: number, shared: boolean) {
  const model = () => fakeModel(() => 'x', { modelId: 'second-load', recordRequests: false });
  const first = await createAgent({ model: model(), storage: false, shared: true });
  await first.ready;
  const out: number[] = [];
  for (let i = -2; i < samples; i++) {
    const started = now();
    const second = await createAgent({ model: model(), storage: false, shared });
    const info = await second.ready;
    if (i >= 0) out.push(now() - started);
    if (info.host !== (shared ? 'shared-worker' : 'worker')) throw new Error(`the second agent runs in a ${info.host}`);
    second.close();
  }
  first.close();
  return out;
}

/**
 * Two tabs' chats on one shared model (two agents of this page on its shared
 * worker), each with its own script: hop times (model start to model start)
 * of one chat running alone, and of both running at once, where each hop
 * queues behind the other's on the one engine.
 */
async function interleavedHops(sends: number, hopsPerSend: number) {
  const tab = () => {
    let n = 0;
    // This tab's turns, in order: calls, then the final answer, send after send.
    return fakeModel(() => (n++ % (hopsPerSend + 1) === hopsPerSend ? FINAL : CALL), { recordRequests: false, modelId: 'interleaved' });
  };
  const agents = await Promise.all([0, 1].map(() => createAgent({ model: tab(), storage: false, shared: true })));
  await Promise.all(agents.map((agent) => agent.ready));
  const run = async (agent: Agent, into: number[] | null) => {
    const chat = await agent.newChat({ tools: [echo], maxToolHops: hopsPerSend });
    const starts: number[] = [];
    const off = chat.on('model-start', () => starts.push(now()));
    await chat.send('Say hello');
    off();
    if (into) for (let k = 0; k < hopsPerSend; k++) into.push(starts[k + 1]! - starts[k]!);
  };
  const alone: number[] = [];
  const together: number[] = [];
  for (let i = -WARMUP; i < sends; i++) {
    await run(agents[0]!, i >= 0 ? alone : null);
    await run(agents[1]!, null);
    await Promise.all(agents.map((agent) => run(agent, i >= 0 ? together : null)));
  }
  for (const agent of agents) agent.close();
  return { alone, together };
}

/** Two worker round trips and one strict IndexedDB put: the least any stored hop can cost. */
async function floor(samples: number) {
  const baseline = new Baseline();
  const db = await openDB(dbName('floor'), 1, { upgrade: (d) => d.createObjectStore('s') });
  const out: number[] = [];
  for (let i = -10; i < samples; i++) {
    const started = now();
    await baseline.call({ kind: 'ping' });
    await baseline.call({ kind: 'ping' });
    const tx = db.transaction('s', 'readwrite', { durability: 'strict' });
    await Promise.all([tx.store.put({ i, text: 'x'.repeat(200) }, i), tx.done]);
    if (i >= 0) out.push(now() - started);
  }
  db.close();
  baseline.close();
  return out;
}

/** A 2,000-token reply, streamed to a page consumer; each delta's trip from the worker. */
/**
 * `stored`: chats in IndexedDB, so the answer being written is kept as it
 * streams (a draft write at most every 250 ms). `paced`: one token per ms,
 * slow enough for drafts to be written while the reply streams, as with a
 * real model.
 */
async function stream(stored = false, paced = stored) {
  const words = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ') + ' end';
  const script = paced ? [{ text: words, tokenDelayMs: 1 }] : () => words;
  const agent = await createAgent({ model: fakeModel(script), storage: stored ? { dbName: dbName('stream') } : false, workerUrl: timedWorkerUrl });
  const chat = await agent.newChat();
  const receivedAt: number[] = [];
  chat.on('text', () => receivedAt.push(performance.timeOrigin + performance.now()));
  let consumed = '';
  for await (const chunk of chat.sendStream('stream')) if (chunk.type === 'text') consumed += chunk.text;
  if (consumed !== words) throw new Error('the consumer did not get the whole reply');
  const sentAt = await sentTimes();
  agent.close();
  if (sentAt.length !== receivedAt.length) throw new Error(`sent ${sentAt.length} deltas, received ${receivedAt.length}`);
  const baseline = new Baseline();
  const base = await baseline.call<{ ms: number; deltas: number }>({ kind: 'generate', outputs: [words] });
  baseline.close();
  return {
    deltas: receivedAt.length,
    ms: receivedAt.at(-1)! - receivedAt[0]!,
    latencies: receivedAt.map((t, i) => t - sentAt[i]!),
    baselineDeltasPerSecond: (base.deltas / base.ms) * 1000,
  };
}

function sentTimes(): Promise<number[]> {
  // The timed worker is the agent's; ask it through a second channel-less message.
  const worker = lastWorker!;
  return new Promise((resolve) => {
    const listen = (event: MessageEvent) => {
      if (event.data?.bench !== 'sent-at') return;
      worker.removeEventListener('message', listen);
      resolve(event.data.times);
    };
    worker.addEventListener('message', listen);
    worker.postMessage({ bench: 'sent-at' });
  });
}

// The benchmark needs the agent's worker itself; note each worker as it is made.
let lastWorker: Worker | null = null;
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    lastWorker = this;
  }
} as typeof Worker;

/** Prefilled tokens per hop over a 10-hop tool conversation, against the new message's tokens. */
async function prefill() {
  let calls = 0;
  const fake = fakeModel(() => (++calls <= 10 ? toolCallText('echo', { text: `step ${calls}` }) : 'All ten steps done.'));
  const agent = await createAgent({ model: fake, storage: false });
  const chat = await agent.newChat({ system: 'You are a careful assistant that uses tools.', tools: [echo], maxToolHops: 10 });
  const reply = await chat.send('Echo ten steps, one at a time.');
  agent.close();
  // The first request has no cache to reuse; every hop after it should prefill
  // only its new message, which the strict fake judges as WebLLM does.
  return { hops: reply.stats.hops, reused: fake.requests.slice(1).map((r) => r.reusedCache) };
}

function message(i: number) {
  return { role: 'user' as const, content: `message number ${i}: ${'lorem ipsum '.repeat(8)}`, createdAt: Date.now() };
}

function record(id: string): ChatRecord {
  return { id, title: id, createdAt: 1, updatedAt: Date.now(), messageCount: 0, version: 0, settings: { maxToolHops: 5, maxConcurrentTools: 1, toolChoice: 'auto', maxResultChars: 8000 }, tools: [], answers: [] };
}

/** Appending one message to chats of 10, 1,000 and 10,000 messages. */
async function appends(samples: number) {
  const store = await IdbChatStore.open(dbName('appends'));
  const out: Record<string, number[]> = {};
  for (const size of [10, 1000, 10000]) {
    const id = `chat-${size}`;
    await store.insert({ record: record(id), messages: Array.from({ length: size }, (_, i) => message(i)) });
    const times: number[] = [];
    let version = 0;
    for (let i = -5; i < samples; i++) {
      const started = now();
      version = await store.append(id, [message(size + i)], { expectedVersion: version, answers: [], updatedAt: Date.now() });
      if (i >= 0) times.push(now() - started);
    }
    out[size] = times;
  }
  store.close();
  return out;
}

/** Opening a 1,000-message chat and listing 1,000 chats, through the agent. */
async function openAndList(samples: number) {
  const name = dbName('open');
  const store = await IdbChatStore.open(name);
  await store.insert({ record: record('big'), messages: Array.from({ length: 1000 }, (_, i) => message(i)) });
  for (let i = 0; i < 1000; i++) await store.create(record(`chat-${i}`));
  store.close();
  const agent: Agent = await createAgent({ model: fakeModel([]), storage: { dbName: name } });
  const open: number[] = [];
  const list: number[] = [];
  for (let i = -3; i < samples; i++) {
    let started = now();
    const chat = await agent.openChat('big');
    const opened = now() - started;
    if (chat.messages.length !== 1000) throw new Error('the big chat did not open whole');
    started = now();
    const chats = await agent.listChats();
    const listed = now() - started;
    if (chats.length !== 1001) throw new Error('not every chat was listed');
    if (i >= 0) {
      open.push(opened);
      list.push(listed);
    }
  }
  agent.close();
  return { open, list };
}

/**
 * A long chat: 200 turns, each reading a 1–3 KB page of a manual with a tool,
 * on a 4096-token window. How often the whole prompt is prefilled again, and
 * how the total prefill compares with the least possible: every new message
 * once, plus the whole prompt at the first request and at each trim.
 */
async function longChat(turns = 200) {
  const page = tool({
    name: 'read_page',
    description: 'Read a page of the manual',
    input: z.object({ page: z.number() }),
    run: ({ page: n }) => ({ page: n, text: `Page ${n}. ` + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(18 + ((n * 7) % 36)) }),
  });
  const fake = fakeModel(
    (r) => {
      const last = r.messages.at(-1)!.content;
      return last.startsWith('<tool_response>') ? 'Noted.' : toolCallText('read_page', { page: Number(/Question (\d+)/.exec(last)?.[1] ?? 0) });
    },
    { contextWindow: 4096 },
  );
  const agent = await createAgent({ model: fake, storage: false });
  const chat = await agent.newChat({ tools: [page] });
  const trimmedAt = new Set<number>();
  chat.on('context-trimmed', () => trimmedAt.add(fake.requests.length));
  for (let i = 1; i <= turns; i++) await chat.send(`Question ${i}: what does page ${i} say?`);
  agent.close();
  const requests = fake.requests;
  const full = requests.filter((r) => !r.reusedCache);
  const total = requests.reduce((n, r) => n + r.promptTokens, 0);
  const minimum = requests.reduce((n, r, i) => n + (r.reusedCache || i === 0 || trimmedAt.has(i) ? r.promptTokens : 0), 0);
  return { hops: requests.length, fullPrefills: full.length, trims: trimmedAt.size, prefillPerHop: requests.map((r) => r.promptTokens), total, minimum };
}

noteWorkers(() => lastWorker!);

const bench = { designHop, hops, secondLoad, interleavedHops, floor, stream, prefill, appends, openAndList, longChat, ...wllamaBench, ...aiSdkBench, ...promptApiBench, ...serverBench, ...secondTabBench };
declare global {
  interface Window {
    bench: typeof bench;
  }
}
window.bench = bench;
document.getElementById('status')!.textContent = 'ready';

