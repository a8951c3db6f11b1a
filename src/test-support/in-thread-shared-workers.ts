// Shared workers for unit tests: each name has one engine host's model, in
// this thread, and every "tab" launching that name connects a port of its own
// to it, as a SharedWorker's tabs do. `crash(name)` is the shared worker
// dying of an uncaught error: every tab is told, and the next launch of that
// name gets a new one; `hang(name)` is it stopping answering for good: the
// browser keeps it, and a launch of that name finds it, never ready.
// Without `shared`, a dedicated in-thread worker.
import { expose } from 'comlink';
import type { SharedPlace, WorkerLauncher } from '../model/open-worker.js';
import { READY, type Crashed } from '../rpc/worker-protocol.js';
import { EngineHost } from '../worker/engine-host.js';
import { HostedModel } from '../worker/hosted-model.js';
import { inThreadWorkers } from './in-thread-workers.js';

export function inThreadSharedWorkers() {
  const instances = new Map<string, { model: HostedModel; ports: MessagePort[]; hung?: boolean }>();
  /** Every launch, in order: the shared worker's name, or 'dedicated'. */
  const launches: string[] = [];
  const dedicated = inThreadWorkers(() => new EngineHost());
  const launch: WorkerLauncher = (workerUrl?: string | URL, shared?: SharedPlace) => {
    if (!shared) {
      launches.push('dedicated');
      return dedicated.launch(workerUrl);
    }
    launches.push(shared.name);
    let instance = instances.get(shared.name);
    if (!instance) instances.set(shared.name, (instance = { model: new HostedModel(), ports: [] }));
    const { port1, port2 } = new MessageChannel();
    for (const port of [port1, port2]) (port as unknown as { unref?: () => void }).unref?.();
    instance.ports.push(port2);
    if (!instance.hung) {
      const host = new EngineHost(instance.model);
      const ports = instance.ports;
      // A hung worker answers on no port: its generation ports too.
      const connect = host.connect.bind(host);
      host.connect = (port, client) => {
        ports.push(port);
        connect(port, client);
      };
      expose(host, port2);
      port2.postMessage(READY);
    }
    const worker = new EventTarget();
    return Object.assign(worker, { port: port1, onerror: null }) as unknown as SharedWorker;
  };
  return {
    launch,
    launches,
    hang(name: string) {
      const instance = instances.get(name)!;
      instance.hung = true;
      for (const port of instance.ports) port.close();
    },
    crash(name: string) {
      const instance = instances.get(name)!;
      instances.delete(name);
      const crashed: Crashed = { tabagent: 'crashed', reason: 'scripted crash' };
      for (const port of instance.ports) port.postMessage(crashed);
    },
  };
}
