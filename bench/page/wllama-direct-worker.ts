// The wllama baseline: the same GGUF, loaded with the load parameters
// src/worker/wllama-engine.ts uses, and completed with the prompts and GBNF
// grammars tabagent sent for the same turns (noted by
// wllama-timed-worker.ts), with no tabagent around it: no page API, no
// comlink, no prompt rendering, no grammar translation, no call scanner.
// Each streamed piece of text is posted to the page as it comes, as
// tabagent's worker posts its deltas, so the page times both the same way.
import { LogLevel, Wllama, type RawCompletionChunk } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { timed, type CompletionTimes, type RecordedCompletion } from './wllama-timing.js';

export type DirectRequest = { id: number } & ({ kind: 'load'; blob: Blob; n_ctx: number } | ({ kind: 'complete'; stream: boolean } & RecordedCompletion));

/** llama.cpp's own counters for a completion. */
export interface Timings {
  prompt_n?: number;
  cache_n?: number;
  predicted_n?: number;
  predicted_per_second?: number;
}

export type DirectMessage =
  | { id: number; kind: 'loaded'; threads: number }
  | { id: number; kind: 'chunk'; text: string }
  | { id: number; kind: 'done'; text: string; timings: Timings | undefined; times: CompletionTimes }
  | { id: number; kind: 'error'; message: string };

let wllama: Wllama | null = null;
const post = (message: DirectMessage) => self.postMessage(message);

self.onmessage = (event: MessageEvent<DirectRequest>) => {
  const { id } = event.data;
  run(event.data).catch((error: unknown) => post({ id, kind: 'error', message: String((error as Error)?.stack ?? error) }));
};

async function run(request: DirectRequest): Promise<void> {
  if (request.kind === 'load') {
    wllama = new Wllama({ default: wasmUrl }, { logger: { debug: () => undefined, log: () => undefined, warn: () => undefined, error: console.error } });
    // As src/worker/wllama-engine.ts loads it (threads: 1, as the bench asks of tabagent).
    await wllama.loadModel([request.blob], { log_level: LogLevel.ERROR, n_ctx: request.n_ctx, n_threads: 1, n_gpu_layers: 0, n_parallel: 1, ctx_shift: false });
    return post({ id: request.id, kind: 'loaded', threads: wllama.getNumThreads() });
  }
  // `stream`: post each piece to the page as it comes (an app showing the reply); off for a tool call, which an app only waits for.
  const { id, prompt, grammar, max_tokens, temperature, stream } = request;
  let text = '';
  let timings: Timings | undefined;
  const { onData, times, done } = timed((chunk: RawCompletionChunk & { timings?: Timings }) => {
    const piece = chunk.choices[0]?.text;
    if (piece) {
      text += piece;
      if (stream) post({ id, kind: 'chunk', text: piece });
    }
    timings = chunk.timings ?? timings;
  });
  await wllama!.createCompletion({ prompt, stream: true, grammar, max_tokens, temperature: temperature ?? 0, ...({ cache_prompt: true } as object), onData });
  done();
  post({ id, kind: 'done', text, timings, times });
}
