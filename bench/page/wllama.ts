// The real CPU engine, side by side: the same tiny GGUF (scripts/tiny-gguf.mjs)
// through tabagent, and through wllama called directly in a worker of its
// own (wllama-direct-worker.ts) with the very completions tabagent asked
// for: prompts rendered by tabagent with the GGUF's template, the same GBNF
// grammars and sampling fields, recorded once from tabagent's own worker
// (wllama-record-worker.ts). Both sides are timed on the page, the same way.
import { z } from 'zod';
import { createAgent, tool, type Agent, type Chat } from '../../src/index.js';
import type { DirectMessage, DirectRequest, RecordedCompletion } from './wllama-direct-worker.js';
import directUrl from './wllama-direct-worker.ts?worker&url';
import recordUrl from './wllama-record-worker.ts?worker&url';

const GGUF = '/models/tiny-qwen3.gguf';
const CONTEXT = 1024;
/** Tokens per decode sample. */
const DECODE_TOKENS = 64;
/** Tokens per time-to-first-token sample: the first one is what is timed. */
const TTFT_TOKENS = 2;

const now = () => performance.now();

/**
 * Structured output whose every token shows on the page: a JSON string of
 * lowercase letters, which the crafted model fills with its longest letter
 * tokens until maxTokens. (A plain string would fill with its longest token,
 * 128 spaces, which tabagent's scanner holds as trailing whitespace and
 * never streams, so the stream would stop after the opening quote.)
 */
const note = z.object({ note: z.string().regex(/^[a-z]+$/) });
const NOTE_PROMPT = 'Write a note.';
const weather = tool({
  name: 'get_weather',
  description: 'Weather for a city',
  input: z.object({ city: z.enum(['Paris', 'Tokyo']), metric: z.boolean() }),
  run: () => ({ temp: 21 }),
});
const HOP_SYSTEM = 'You are helpful.';
const HOP_PROMPT = 'Weather in Paris?';
/** Hop 1 calls the tool under a named-tool grammar; hop 2 answers, briefly. */
const hopStep = ({ steps }: { steps: readonly unknown[] }) => (steps.length === 0 ? { toolChoice: { name: 'get_weather' } } : { toolChoice: 'none' as const, generation: { thinking: false, maxTokens: 4 } });

class Direct {
  #worker = new Worker(directUrl, { type: 'module' });
  #next = 0;
  /** One request; `onChunk` gets each streamed piece as it reaches the page. */
  call<T extends DirectMessage>(request: DirectRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never, onChunk?: (text: string) => void): Promise<T> {
    const id = ++this.#next;
    return new Promise((resolve) => {
      const listen = (event: MessageEvent<DirectMessage>) => {
        const message = event.data;
        if (message.id !== id) return;
        if (message.kind === 'chunk') return onChunk?.(message.text);
        this.#worker.removeEventListener('message', listen);
        resolve(message as T);
      };
      this.#worker.addEventListener('message', listen);
      this.#worker.postMessage({ id, ...request });
    });
  }
  complete(completion: RecordedCompletion, onChunk?: (text: string) => void) {
    return this.call<Extract<DirectMessage, { kind: 'done' }>>({ kind: 'complete', ...completion }, onChunk);
  }
  close() {
    this.#worker.terminate();
  }
}

interface Setup {
  agent: Agent;
  direct: Direct;
  /** tabagent's completions for: a decode sample, a first-token sample, hop 1, hop 2. */
  recorded: RecordedCompletion[];
}
let setup: Setup | null = null;

const model = (blob: Blob) => ({ gguf: blob, id: 'tiny-qwen3', contextSize: CONTEXT, threads: 1 });

/** One streamed sample: when it was asked for, when each visible piece reached the page, what was written. */
interface Streamed {
  asked: number;
  shown: number[];
  raw: string;
  tokens: number;
  promptTokens: number;
  /** llama.cpp's own decode rate (direct only: tabagent's reaches the page only with a reply that parses). */
  llamaTps?: number;
}

/** Structured output through tabagent, timed at each partial object the page consumer gets. */
async function tabagentNote(agent: Agent, maxTokens: number): Promise<Streamed> {
  const chat = await agent.newChat({ generation: { thinking: false } });
  let usage = { promptTokens: -1, completionTokens: -1 };
  chat.on('model-end', (e) => (usage = e));
  const shown: number[] = [];
  const asked = now();
  const stream = chat.generateObjectStream({ schema: note, prompt: NOTE_PROMPT, generation: { thinking: false, maxTokens } });
  try {
    for await (const _ of stream) shown.push(now());
  } catch (error) {
    // Cut off by maxTokens inside the string, as intended: the object is unfinished.
    if ((error as Error).name !== 'InvalidObjectError') throw error;
  }
  return { asked, shown, raw: lastRaw(chat), tokens: usage.completionTokens, promptTokens: usage.promptTokens };
}

function lastRaw(chat: Chat): string {
  const turn = chat.messages.findLast((m) => m.role === 'assistant');
  return turn?.role === 'assistant' ? turn.raw : '';
}

/** The same completion, direct, timed at each piece that reaches the page. */
async function directNote(direct: Direct, completion: RecordedCompletion): Promise<Streamed> {
  const shown: number[] = [];
  const asked = now();
  const done = await direct.complete(completion, () => shown.push(now()));
  return { asked, shown, raw: done.text, tokens: done.timings?.predicted_n ?? -1, promptTokens: done.timings?.prompt_n ?? -1, llamaTps: done.timings?.predicted_per_second };
}

/** Both sides must have done the same model work, or the comparison says nothing. */
function same(label: string, a: Streamed, b: Streamed): void {
  if (a.raw !== b.raw || a.tokens !== b.tokens || a.promptTokens !== b.promptTokens) {
    throw new Error(`${label}: tabagent and direct wllama differ (${JSON.stringify([a.raw.slice(0, 60), a.tokens, a.promptTokens])} vs ${JSON.stringify([b.raw.slice(0, 60), b.tokens, b.promptTokens])})`);
  }
}

/** A managed round trip through tabagent: from the first model request to the end of the second. */
async function tabagentHop(agent: Agent): Promise<{ ms: number; raws: string[]; tokens: number[] }> {
  const chat = await agent.newChat({ system: HOP_SYSTEM, tools: [weather], generation: { thinking: false } });
  let started = 0;
  let ended = 0;
  const tokens: number[] = [];
  chat.on('model-start', (e) => {
    if (e.step === 0) started = now();
  });
  chat.on('model-end', (e) => {
    tokens.push(e.completionTokens);
    if (e.step === 1) ended = now();
  });
  const reply = await chat.send(HOP_PROMPT, { prepareStep: hopStep });
  if (reply.stats.hops !== 1 || reply.steps[0]?.toolCalls[0]?.name !== 'get_weather') throw new Error('the round trip did not call get_weather once');
  const raws = chat.messages.flatMap((m) => (m.role === 'assistant' ? [m.raw] : []));
  return { ms: ended - started, raws, tokens };
}

/** The same two completions, direct: the tool call, then the next prompt, from the page. */
async function directHop(direct: Direct, [first, second]: RecordedCompletion[]): Promise<{ ms: number; raws: string[]; tokens: number[] }> {
  const started = now();
  const a = await direct.complete(first!);
  const b = await direct.complete(second!);
  return { ms: now() - started, raws: [a.text, b.text], tokens: [a.timings?.predicted_n ?? -1, b.timings?.predicted_n ?? -1] };
}

/** Loads the model on both sides and records tabagent's completions; each side runs every case once to warm up. */
async function wllamaSetup() {
  const blob = await (await fetch(GGUF)).blob();
  // Recorded on a worker of its own, so the measured agent's worker is the plain one.
  const recorder = await createAgent({ model: model(blob), storage: false, workerUrl: recordUrl });
  await recorder.ready;
  await tabagentNote(recorder, DECODE_TOKENS);
  await tabagentNote(recorder, TTFT_TOKENS);
  await tabagentHop(recorder);
  const recorded = await recordedCompletions();
  recorder.close();
  if (recorded.length !== 4) throw new Error(`recorded ${recorded.length} completions, not 4`);

  const agent = await createAgent({ model: model(blob), storage: false });
  const info = await agent.ready;
  const direct = new Direct();
  const loaded = await direct.call<Extract<DirectMessage, { kind: 'loaded' }>>({ kind: 'load', blob, n_ctx: CONTEXT });
  setup = { agent, direct, recorded };
  for (let i = 0; i < 2; i++) await wllamaRound(1, 1, 1);
  return { tabagentThreads: info.threads, directThreads: loaded.threads, promptChars: recorded.map((r) => r.prompt.length), grammarChars: recorded.map((r) => r.grammar?.length ?? 0) };
}

function recordedCompletions(): Promise<RecordedCompletion[]> {
  const worker = lastWorker();
  return new Promise((resolve) => {
    const listen = (event: MessageEvent) => {
      if (event.data?.bench !== 'completions') return;
      worker.removeEventListener('message', listen);
      resolve(event.data.completions);
    };
    worker.addEventListener('message', listen);
    worker.postMessage({ bench: 'completions' });
  });
}

/** main.ts notes each worker the page makes; the recorder's is the last. */
let lastWorker: () => Worker = () => {
  throw new Error('no worker noted');
};
export function noteWorkers(last: () => Worker) {
  lastWorker = last;
}

/**
 * One round: `decode` decode samples, `ttft` first-token samples and `hops`
 * round trips on each side, each sample on both sides back to back (which
 * goes first alternates), so both KV caches see the same requests in the
 * same order. Raw times; bench/run.mjs makes the figures.
 */
async function wllamaRound(decode: number, ttft: number, hops: number) {
  const { agent, direct, recorded } = setup!;
  const [decodeCompletion, ttftCompletion, ...hopCompletions] = recorded;
  const out = { tabagentTps: [] as number[], directTps: [] as number[], directLlamaTps: [] as number[], tabagentTtft: [] as number[], directTtft: [] as number[], tabagentHop: [] as number[], directHop: [] as number[] };
  const both = async <T>(i: number, a: () => Promise<T>, b: () => Promise<T>): Promise<[T, T]> => {
    if (i % 2 === 0) {
      const x = await a();
      return [x, await b()];
    }
    const y = await b();
    return [await a(), y];
  };
  // Decode: tokens after the first, over the wall time from the first visible piece to the last.
  const tps = (s: Streamed) => ((s.tokens - 1) / (s.shown.at(-1)! - s.shown[0]!)) * 1000;
  for (let i = 0; i < decode; i++) {
    const [t, d] = await both(i, () => tabagentNote(agent, DECODE_TOKENS), () => directNote(direct, decodeCompletion!));
    same('decode', t, d);
    if (t.tokens !== DECODE_TOKENS) throw new Error(`a decode sample wrote ${t.tokens} tokens, not ${DECODE_TOKENS}`);
    out.tabagentTps.push(tps(t));
    out.directTps.push(tps(d));
    out.directLlamaTps.push(d.llamaTps ?? NaN);
  }
  for (let i = 0; i < ttft; i++) {
    const [t, d] = await both(i, () => tabagentNote(agent, TTFT_TOKENS), () => directNote(direct, ttftCompletion!));
    same('first token', t, d);
    out.tabagentTtft.push(t.shown[0]! - t.asked);
    out.directTtft.push(d.shown[0]! - d.asked);
  }
  for (let i = 0; i < hops; i++) {
    const [t, d] = await both(i, () => tabagentHop(agent), () => directHop(direct, hopCompletions));
    if (JSON.stringify([t.raws, t.tokens]) !== JSON.stringify([d.raws, d.tokens])) throw new Error(`hop: tabagent and direct wllama differ: ${JSON.stringify([t.raws, t.tokens, d.raws, d.tokens])}`);
    out.tabagentHop.push(t.ms);
    out.directHop.push(d.ms);
  }
  return out;
}

function wllamaClose() {
  setup?.agent.close();
  setup?.direct.close();
  setup = null;
}

export const wllamaBench = { wllamaSetup, wllamaRound, wllamaClose };
