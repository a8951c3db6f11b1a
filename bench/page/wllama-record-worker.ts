// The real tabagent worker, with one addition for the benchmark: it notes the
// completions tabagent asks wllama for (the prompt rendered with the GGUF's
// own template, the GBNF grammar, the sampling fields), so the direct wllama
// worker can make exactly the same ones. Used once, to record; the measured
// agent runs the plain worker.
import { Wllama } from '@wllama/wllama';
import type { RecordedCompletion } from './wllama-direct-worker.js';

const completions: RecordedCompletion[] = [];
const complete = Wllama.prototype.createCompletion as (this: Wllama, options: RecordedCompletion) => Promise<unknown>;
(Wllama.prototype as { createCompletion: unknown }).createCompletion = function (this: Wllama, options: RecordedCompletion) {
  const { prompt, grammar, max_tokens, temperature } = options;
  completions.push({ prompt, grammar, max_tokens, temperature });
  return complete.call(this, options);
};

self.addEventListener('message', (event: MessageEvent) => {
  if (event.data?.bench !== 'completions') return;
  self.postMessage({ bench: 'completions', completions: completions.splice(0) });
});

await import('../../src/worker/worker.js');
