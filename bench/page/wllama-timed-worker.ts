// The real tabagent worker, with one addition for the benchmark: it notes
// each completion tabagent asks wllama for (the prompt rendered with the
// GGUF's own template, the GBNF grammar, the sampling fields), so the direct
// wllama worker can make exactly the same ones, and times it as the direct
// worker times its own (see CompletionTimes), so the model's own time can be
// told from tabagent's. The notes cost a few microseconds per completion and
// two clock reads per streamed chunk (the direct worker pays the same).
import { Wllama, type RawCompletionChunk } from '@wllama/wllama';
import { timed, type CompletionNote, type RecordedCompletion } from './wllama-timing.js';

const notes: CompletionNote[] = [];
type Options = RecordedCompletion & { onData?: (chunk: RawCompletionChunk) => void };
const complete = Wllama.prototype.createCompletion as (this: Wllama, options: Options) => Promise<unknown>;
(Wllama.prototype as { createCompletion: unknown }).createCompletion = function (this: Wllama, options: Options) {
  const { prompt, grammar, max_tokens, temperature } = options;
  const { onData, times, done } = timed(options.onData);
  notes.push({ completion: { prompt, grammar, max_tokens, temperature }, times });
  return complete.call(this, { ...options, onData }).finally(done);
};

self.addEventListener('message', (event: MessageEvent) => {
  if (event.data?.bench !== 'wllama-notes') return;
  self.postMessage({ bench: 'wllama-notes', notes: notes.splice(0) });
});

await import('../../src/worker/worker.js');
