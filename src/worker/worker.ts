// The worker entry, dedicated or shared: one script serves both. A dedicated
// worker exposes the engine host to its page; a shared one (a SharedWorker
// every tab of the origin asking for the same model connects to) exposes an
// engine host per connecting tab, all on the one hosted model. Either way
// each connection is told it is ready once it listens.
import { expose } from 'comlink';
import { installErrorTransfer } from '../rpc/error-transfer.js';
import { READY, type Crashed } from '../rpc/worker-protocol.js';
import { EngineHost } from './engine-host.js';
import { HostedModel } from './hosted-model.js';

// The realm starts once. A bundler's lazy chunks (the engines) import shared
// code from this entry's chunk by its bare URL, so a worker started at a URL
// with a query (a cache-buster, a policy's `?csp=`) evaluates this module a
// second time: a second host on the same port would answer every call, with
// no model loaded, and a second ready message would reach the page.
const STARTED = Symbol.for('tabagent.worker-started');
const scope = globalThis as Record<symbol, unknown>;

if (!scope[STARTED]) {
  scope[STARTED] = true;
  installErrorTransfer();
  const model = new HostedModel();

  if ('onconnect' in self) {
    const ports = new Set<MessagePort>();
    // Granted once the tab holding the lock releases it: its connection ended, or the tab is gone.
    const watch = (name: string) => navigator.locks.request(name, () => undefined);
    self.addEventListener('connect', (event) => {
      const port = (event as MessageEvent).ports[0]!;
      ports.add(port);
      expose(new EngineHost(model, watch), port);
      port.postMessage(READY);
    });
    // An uncaught error reaches no tab by itself, and leaves the one model in a
    // state no one knows: every tab hears of it as a crash, and the worker ends,
    // so the next tab to ask starts a new one.
    self.addEventListener('error', (event) => {
      const crashed: Crashed = { tabagent: 'crashed', reason: event.message || 'the shared worker threw an uncaught error' };
      for (const port of ports) port.postMessage(crashed);
      self.close();
    });
  } else {
    expose(new EngineHost(model));
    self.postMessage(READY);
  }
}
