// A tab's connection to the SharedWorker named for its model (open-host.ts
// loads this on demand): which instance (shared-epoch.ts), the Web Lock the
// host watches to know the tab is gone (client-lock.ts), and the port as a
// Worker (shared-worker-port.ts). Where none can be had, a dedicated worker.
import { modelKey } from '../rpc/model-key.js';
import type { ModelSpec } from '../rpc/worker-protocol.js';
import { holdClientLock } from './client-lock.js';
import { dedicatedHost, startSharedWorker, type HostPlace, type OpenedHost, type WorkerLauncher } from './open-worker.js';
import { sharedEpoch } from './shared-epoch.js';
import { sharedWorkerPort } from './shared-worker-port.js';

/** The name of the shared worker that hosts the model of `key`, in its `epoch`. */
export function sharedWorkerName(key: string, epoch: number): string {
  return epoch === 0 ? `tabagent:${key}` : `tabagent@${epoch}:${key}`;
}

export async function openSharedHost(place: HostPlace, spec: ModelSpec, launch: WorkerLauncher, crashed?: number): Promise<OpenedHost> {
  const dedicated = (notShared: string) => dedicatedHost(launch, place.workerUrl, notShared);
  const key = modelKey(spec);
  if (key === null) return dedicated('a model read from a file (a Blob) is this tab’s own: no other tab can name it');
  if (typeof SharedWorker === 'undefined') return dedicated('this browser has no SharedWorker');
  const epoch = sharedEpoch(key, crashed);
  const lock = await holdClientLock();
  let started: Worker | SharedWorker;
  try {
    started = startSharedWorker(launch, place.workerUrl, { name: sharedWorkerName(key, epoch) });
  } catch (error) {
    lock.release();
    throw error;
  }
  if (!('port' in started)) {
    lock.release();
    return { worker: started, host: 'worker', notShared: 'the worker script is on another origin (a CDN): tabs can share a worker only when its script is served from the page’s own origin (workerUrl)' };
  }
  return { worker: sharedWorkerPort(started, lock.release), host: 'shared-worker', epoch, ...(lock.name ? { client: lock.name } : {}) };
}
