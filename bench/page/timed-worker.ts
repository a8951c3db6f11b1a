// The real tabagent worker, with one addition for the benchmark: it notes when
// each streamed delta leaves, so the page can measure how long deltas travel.
import { GenerationServer } from '../../src/rpc/generation-channel.js';

const sentAt: number[] = [];
const text = GenerationServer.prototype.text;
GenerationServer.prototype.text = function (this: GenerationServer, id: number, delta: string) {
  if (delta) sentAt.push(performance.timeOrigin + performance.now());
  text.call(this, id, delta);
};

self.addEventListener('message', (event: MessageEvent) => {
  if (event.data?.bench !== 'sent-at') return;
  self.postMessage({ bench: 'sent-at', times: sentAt.splice(0) });
});

await import('../../src/worker/worker.js');
