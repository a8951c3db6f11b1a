// Workers for unit tests: each "worker" is one end of a MessageChannel whose
// other end serves `host()` in this thread (comlink, as a real worker's
// would). `log` says when each started and ended, in order; workers numbered
// in `silent` never say they are ready.
import { expose } from 'comlink';
import type { WorkerLauncher } from '../model/open-worker.js';
import { READY } from '../rpc/worker-protocol.js';

export function inThreadWorkers(host: () => object, silent: readonly number[] = []) {
  const log: string[] = [];
  const workers: { terminated: boolean }[] = [];
  const launch: WorkerLauncher = () => {
    const n = workers.length + 1;
    const { port1, port2 } = new MessageChannel();
    // Node keeps a process alive while a port listens.
    for (const port of [port1, port2]) (port as unknown as { unref?: () => void }).unref?.();
    const worker = Object.assign(port1, {
      terminated: false,
      terminate() {
        worker.terminated = true;
        log.push(`end ${n}`);
        port1.close();
        port2.close();
      },
    });
    workers.push(worker);
    log.push(`start ${n}`);
    expose(host(), port2);
    if (!silent.includes(n)) port2.postMessage(READY);
    return worker as unknown as Worker;
  };
  return { launch, workers, log };
}
