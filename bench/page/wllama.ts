// The real CPU engine, side by side: the same tiny GGUF (scripts/tiny-gguf.mjs)
// through tabagent, and through wllama called directly in a worker of its
// own (wllama-direct-worker.ts) with the very completions tabagent asked
// for: the prompts tabagent rendered with the GGUF's template, the same GBNF
// grammars and sampling fields, noted in tabagent's worker
// (wllama-timed-worker.ts). Both sides are timed on the page the same way,
// and each side's completions are timed in the worker that calls wllama, so
// the model's own time (which varies from run to run by far more than
// tabagent's overhead) can be taken out of the overhead figures.
import { z } from 'zod';
import { createAgent, tool, type Agent, type Chat } from '../../src/index.js';
import type { DirectMessage, DirectRequest } from './wllama-direct-worker.js';
import type { CompletionNote, CompletionTimes, RecordedCompletion } from './wllama-timing.js';
import directUrl from './wllama-direct-worker.ts?worker&url';
import timedUrl from './wllama-timed-worker.ts?worker&url';

const GGUF = '/models/tiny-qwen3.gguf';
const CONTEXT = 1024;
/** Tokens per decode sample. */
const DECODE_TOKENS = 32;
/** Tokens per time-to-first-token sample: the first one is what is timed. */
const TTFT_TOKENS = 2;

const now = () => performance.now();

/**
 * Structured output whose every token shows on the page: a JSON string of
 * lowercase letters, which the crafted model fills with its longest letter
 * tokens until maxTokens (so the object is unfinished, as intended). A plain
 * string would fill with its longest token, 128 spaces, which tabagent's
 * scanner holds as trailing whitespace and never streams.
 */
const note = z.object({ note: z.string().regex(/^[a-z]+$/) });
const NOTE_PROMPT = 'Write a note.';
/** A tool with no arguments: its call is the named-tool grammar's shortest, so each hop's model time is short. */
const ping = tool({ name: 'ping', description: 'Check that the service is up', input: z.object({}), run: () => 'pong' });
const HOP_SYSTEM = 'You are helpful.';
const HOP_PROMPT = 'Is the service up?';
/** Hop 1 calls the tool under a named-tool grammar; the next request answers in one token. */
const hopStep = ({ steps }: { steps: readonly unknown[] }) => (steps.length === 0 ? { toolChoice: { name: 'ping' } } : { toolChoice: 'none' as const, generation: { thinking: false, maxTokens: 1 } });

type Without<T> = T extends unknown ? Omit<T, 'id'> : never;

class Direct {
  #worker = new Worker(directUrl, { type: 'module' });
  #next = 0;
  /** One request; `onChunk` gets each streamed piece as it reaches the page. */
  call<T extends DirectMessage>(request: Without<DirectRequest>, onChunk?: (text: string) => void): Promise<T> {
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      const listen = (event: MessageEvent<DirectMessage>) => {
        const message = event.data;
        if (message.id !== id) return;
        if (message.kind === 'chunk') return onChunk?.(message.text);
        this.#worker.removeEventListener('message', listen);
        if (message.kind === 'error') reject(new Error(`direct wllama: ${message.message}`));
        else resolve(message as T);
      };
      this.#worker.addEventListener('message', listen);
      this.#worker.postMessage({ id, ...request });
    });
  }
  complete(completion: RecordedCompletion, onChunk?: (text: string) => void) {
    return this.call<Extract<DirectMessage, { kind: 'done' }>>({ kind: 'complete', stream: onChunk !== undefined, ...completion }, onChunk);
  }
  close() {
    this.#worker.terminate();
  }
}

/** The page's view of tabagent's worker: the notes of the completions it made since last asked. */
class Notes {
  constructor(private readonly worker: Worker) {}
  take(): Promise<CompletionNote[]> {
    return new Promise((resolve) => {
      const listen = (event: MessageEvent) => {
        if (event.data?.bench !== 'wllama-notes') return;
        this.worker.removeEventListener('message', listen);
        resolve(event.data.notes);
      };
      this.worker.addEventListener('message', listen);
      this.worker.postMessage({ bench: 'wllama-notes' });
    });
  }
}

interface Setup {
  agent: Agent;
  notes: Notes;
  direct: Direct;
  /** tabagent's completions for: a decode sample, a first-token sample, hop 1, hop 2. */
  recorded: RecordedCompletion[];
}
let setup: Setup | null = null;

/** One streamed sample: when it was asked for, when each visible piece reached the page, what was written, how the worker timed it. */
interface Streamed {
  asked: number;
  shown: number[];
  raw: string;
  tokens: number;
  promptTokens: number;
  times: CompletionTimes;
  /** llama.cpp's own decode rate (direct only: tabagent's reaches the page only with a reply that parses). */
  llamaTps?: number;
  /** What tabagent asked wllama for (tabagent only). */
  completion?: RecordedCompletion;
}

/** Structured output through tabagent, timed at each partial object the page consumer gets. */
async function tabagentNote({ agent, notes, recorded }: Pick<Setup, 'agent' | 'notes'> & { recorded?: RecordedCompletion }, maxTokens: number): Promise<Streamed> {
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
  const [made] = await notes.take();
  if (recorded) sameRequest(made!.completion, recorded);
  return { asked, shown, raw: lastRaw(chat), tokens: usage.completionTokens, promptTokens: usage.promptTokens, times: made!.times, completion: made!.completion };
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
  return { asked, shown, raw: done.text, tokens: done.timings?.predicted_n ?? -1, promptTokens: done.timings?.prompt_n ?? -1, times: done.times, llamaTps: done.timings?.predicted_per_second };
}

/** tabagent asked for what was recorded. */
function sameRequest(made: RecordedCompletion, recorded: RecordedCompletion): void {
  if (JSON.stringify(made) !== JSON.stringify(recorded)) throw new Error('tabagent made a different request than the one recorded');
}

/** Both sides must have done the same model work, or the comparison says nothing. */
function same(label: string, a: Pick<Streamed, 'raw' | 'tokens' | 'promptTokens'>, b: Pick<Streamed, 'raw' | 'tokens' | 'promptTokens'>): void {
  if (a.raw !== b.raw || a.tokens !== b.tokens || a.promptTokens !== b.promptTokens) {
    throw new Error(`${label}: tabagent and direct wllama differ (${JSON.stringify([a.raw.slice(0, 60), a.tokens, a.promptTokens])} vs ${JSON.stringify([b.raw.slice(0, 60), b.tokens, b.promptTokens])})`);
  }
}

interface Hop {
  /** On the page, from the first model request to the end of the second. */
  ms: number;
  /** In the worker that called wllama: the two completions, less the caller's own onData. */
  modelMs: number;
  raws: string[];
  /** Per completion: tokens written, and prompt tokens read (those the KV cache did not hold). */
  tokens: number[];
  promptTokens: number[];
  /** What tabagent asked wllama for (tabagent only). */
  completions?: RecordedCompletion[];
}

const modelMs = (t: CompletionTimes) => t.returned - t.inCallback;

/** A managed round trip through tabagent: from the first model request (the page's model-start) to the end of the second (its model-end). */
async function tabagentHop({ agent, notes, recorded }: Pick<Setup, 'agent' | 'notes'> & { recorded?: RecordedCompletion[] }): Promise<Hop> {
  const chat = await agent.newChat({ system: HOP_SYSTEM, tools: [ping], generation: { thinking: false } });
  let started = 0;
  let ended = 0;
  const tokens: number[] = [];
  const promptTokens: number[] = [];
  chat.on('model-start', (e) => {
    if (e.step === 0) started = now();
  });
  chat.on('model-end', (e) => {
    tokens.push(e.completionTokens);
    promptTokens.push(e.promptTokens);
    if (e.step === 1) ended = now();
  });
  const reply = await chat.send(HOP_PROMPT, { prepareStep: hopStep });
  if (reply.stats.hops !== 1 || reply.steps[0]?.toolCalls[0]?.name !== 'ping') throw new Error('the round trip did not call ping once');
  const made = await notes.take();
  if (recorded) made.forEach((m, i) => sameRequest(m.completion, recorded[i]!));
  const raws = chat.messages.flatMap((m) => (m.role === 'assistant' ? [m.raw] : []));
  return { ms: ended - started, modelMs: made.reduce((n, m) => n + modelMs(m.times), 0), raws, tokens, promptTokens, completions: made.map((m) => m.completion) };
}

/**
 * The same two completions, direct: the tool call, then the next prompt,
 * posted from the page one after the other, their text not streamed to the
 * page (tabagent shows none of a call's text either; an app only waits for it).
 */
async function directHop(direct: Direct, [first, second]: RecordedCompletion[]): Promise<Hop> {
  const started = now();
  const a = await direct.complete(first!);
  const b = await direct.complete(second!);
  const ms = now() - started;
  const counts = (key: 'predicted_n' | 'prompt_n') => [a.timings?.[key] ?? -1, b.timings?.[key] ?? -1];
  return { ms, modelMs: modelMs(a.times) + modelMs(b.times), raws: [a.text, b.text], tokens: counts('predicted_n'), promptTokens: counts('prompt_n') };
}

/** main.ts notes each worker the page makes: the agent's is the last just after it starts. */
let lastWorker: () => Worker = () => {
  throw new Error('no worker noted');
};
export function noteWorkers(last: () => Worker) {
  lastWorker = last;
}

/**
 * Loads the GGUF through tabagent and in the direct worker (the same Blob,
 * the same load parameters), records tabagent's completions for every case,
 * makes the same ones directly (so both KV caches hold the same), then warms
 * both up with one round.
 */
async function wllamaSetup() {
  const blob = await (await fetch(GGUF)).blob();
  const agent = await createAgent({ model: { gguf: blob, id: 'tiny-qwen3', contextSize: CONTEXT, threads: 1 }, storage: false, workerUrl: timedUrl });
  const notes = new Notes(lastWorker());
  const info = await agent.ready;
  const recorded = [(await tabagentNote({ agent, notes }, DECODE_TOKENS)).completion!, (await tabagentNote({ agent, notes }, TTFT_TOKENS)).completion!, ...(await tabagentHop({ agent, notes })).completions!];
  if (recorded.length !== 4) throw new Error(`recorded ${recorded.length} completions, not 4`);
  const direct = new Direct();
  const loaded = await direct.call<Extract<DirectMessage, { kind: 'loaded' }>>({ kind: 'load', blob, n_ctx: CONTEXT });
  for (const completion of recorded) await direct.complete(completion);
  setup = { agent, notes, direct, recorded };
  await wllamaRound(1, 2, 1);
  return { tabagentThreads: info.threads, directThreads: loaded.threads };
}

/**
 * One round: `decode` decode samples, `ttft` first-token samples and `hops`
 * round trips on each side, each sample on both sides back to back (which
 * goes first alternates), so both KV caches see the same requests in the
 * same order. Raw times; bench/run.mjs makes the figures.
 */
async function wllamaRound(decode: number, ttft: number, hops: number) {
  const { direct, recorded } = setup!;
  const [decodeCompletion, ttftCompletion, ...hopCompletions] = recorded;
  const out = {
    tabagentTps: [] as number[],
    directTps: [] as number[],
    directLlamaTps: [] as number[],
    /** Per pair: the share of the model's own pace the page sees through tabagent, over the same share direct (the model's speed drops out). */
    paceSeenRatio: [] as number[],
    /** The caller's onData per streamed piece, µs: tabagent's scanner and posting; the baseline's posting. */
    tabagentCallbackUs: [] as number[],
    directCallbackUs: [] as number[],
    tabagentTtft: [] as number[],
    directTtft: [] as number[],
    /** The first token's time less the model's part of it (call → first text, in the worker). */
    tabagentTtftOutside: [] as number[],
    directTtftOutside: [] as number[],
    tabagentHop: [] as number[],
    directHop: [] as number[],
    tabagentHopOutside: [] as number[],
    directHopOutside: [] as number[],
  };
  const both = async <T>(i: number, a: () => Promise<T>, b: () => Promise<T>): Promise<[T, T]> => {
    if (i % 2 === 0) {
      const x = await a();
      return [x, await b()];
    }
    const y = await b();
    return [await a(), y];
  };
  // Decode: tokens after the first, over the page's wall time from the first visible piece to the last.
  const tps = (s: Streamed) => ((s.tokens - 1) / (s.shown.at(-1)! - s.shown[0]!)) * 1000;
  const callbackUs = (s: Streamed) => (s.times.inCallback / s.times.pieces) * 1000;
  // The share of the model's own pace (in the worker: first text to last, less the caller's onData) that the page consumer sees.
  const paceSeen = ({ times: t, shown }: Streamed) => (t.lastText - t.firstText - (t.callbackBeforeLast - t.callbackBeforeFirst)) / (shown.at(-1)! - shown[0]!);
  for (let i = 0; i < decode; i++) {
    const [t, d] = await both(i, () => tabagentNote({ ...setup!, recorded: decodeCompletion }, DECODE_TOKENS), () => directNote(direct, decodeCompletion!));
    same('decode', t, d);
    if (t.tokens !== DECODE_TOKENS) throw new Error(`a decode sample wrote ${t.tokens} tokens, not ${DECODE_TOKENS}`);
    out.tabagentTps.push(tps(t));
    out.directTps.push(tps(d));
    out.directLlamaTps.push(d.llamaTps ?? NaN);
    out.paceSeenRatio.push(paceSeen(t) / paceSeen(d));
    out.tabagentCallbackUs.push(callbackUs(t));
    out.directCallbackUs.push(callbackUs(d));
  }
  for (let i = 0; i < ttft; i++) {
    const [t, d] = await both(i, () => tabagentNote({ ...setup!, recorded: ttftCompletion }, TTFT_TOKENS), () => directNote(direct, ttftCompletion!));
    same('first token', t, d);
    for (const [s, page, outside] of [[t, out.tabagentTtft, out.tabagentTtftOutside], [d, out.directTtft, out.directTtftOutside]] as const) {
      page.push(s.shown[0]! - s.asked);
      outside.push(s.shown[0]! - s.asked - s.times.firstText);
    }
  }
  for (let i = 0; i < hops; i++) {
    const [t, d] = await both(i, () => tabagentHop({ ...setup!, recorded: hopCompletions }), () => directHop(direct, hopCompletions));
    const work = (h: Hop) => JSON.stringify([h.raws, h.tokens, h.promptTokens]);
    if (work(t) !== work(d)) throw new Error(`hop: tabagent and direct wllama differ: ${work(t)} vs ${work(d)}`);
    out.tabagentHop.push(t.ms);
    out.directHop.push(d.ms);
    out.tabagentHopOutside.push(t.ms - t.modelMs);
    out.directHopOutside.push(d.ms - d.modelMs);
  }
  return out;
}

function wllamaClose() {
  setup?.agent.close();
  setup?.direct.close();
  setup = null;
}

export const wllamaBench = { wllamaSetup, wllamaRound, wllamaClose };
