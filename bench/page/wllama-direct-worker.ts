// The wllama baseline: the same GGUF, loaded with the load parameters
// src/worker/wllama-engine.ts uses, and completed with the prompts and GBNF
// grammars tabagent sent for the same turns (recorded by
// wllama-record-worker.ts), with no tabagent around it: no page API, no
// comlink, no prompt rendering, no grammar translation, no call scanner.
// Each streamed piece of text is posted to the page as it comes, as
// tabagent's worker posts its deltas, so the page times both the same way.
import { LogLevel, Wllama, type RawCompletionChunk } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';

/** A completion as tabagent asked wllama for it (the fields it sets). */
export interface RecordedCompletion {
  prompt: string;
  grammar?: string;
  max_tokens?: number;
  temperature?: number;
}

export type DirectRequest = { id: number } & ({ kind: 'load'; blob: Blob; n_ctx: number } | ({ kind: 'complete' } & RecordedCompletion));

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
  | { id: number; kind: 'done'; text: string; finish: string | null; timings: Timings | undefined };

let wllama: Wllama | null = null;
const post = (message: DirectMessage) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<DirectRequest>) => {
  const request = event.data;
  if (request.kind === 'load') {
    wllama = new Wllama({ default: wasmUrl }, { logger: { debug: () => undefined, log: () => undefined, warn: () => undefined, error: console.error } });
    // As src/worker/wllama-engine.ts loads it (threads: 1, as the bench asks of tabagent).
    await wllama.loadModel([request.blob], { log_level: LogLevel.ERROR, n_ctx: request.n_ctx, n_threads: 1, n_gpu_layers: 0, n_parallel: 1, ctx_shift: false });
    return post({ id: request.id, kind: 'loaded', threads: wllama.getNumThreads() });
  }
  const { id, prompt, grammar, max_tokens, temperature } = request;
  let text = '';
  let finish: string | null = null;
  let timings: Timings | undefined;
  await wllama!.createCompletion({
    prompt,
    stream: true,
    grammar,
    max_tokens,
    temperature: temperature ?? 0,
    ...({ cache_prompt: true } as object),
    onData: (chunk: RawCompletionChunk & { timings?: Timings }) => {
      const piece = chunk.choices[0]?.text;
      if (piece) {
        text += piece;
        post({ id, kind: 'chunk', text: piece });
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
      timings = chunk.timings ?? timings;
    },
  });
  post({ id, kind: 'done', text, finish, timings });
};
