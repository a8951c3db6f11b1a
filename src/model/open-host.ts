// Where the model's engine host runs: a worker of the page's own, or, with
// `shared`, the SharedWorker named for the model, which every tab of the
// origin asking for the same model connects to. Where a shared one cannot be
// had, a dedicated worker runs it, and `notShared` says why.
import { modelKey } from '../rpc/model-key.js';
import type { ModelSpec } from '../rpc/worker-protocol.js';
import { holdClientLock } from './client-lock.js';
import { startSharedWorker, startWorker, type WorkerLauncher } from './open-worker.js';
import { sharedEpoch } from './shared-epoch.js';
import { sharedWorkerPort } from './shared-worker-port.js';

export interface HostPlace {
  shared?: boolean;
  workerUrl?: string | URL;
}

export interface OpenedHost {
  /** The worker, or this tab's connection to the shared one, as a Worker. */
  worker: Worker;
  host: 'worker' | 'shared-worker';
  /** The lock this tab holds while connected to a shared worker. */
  client?: string;
  /** Which instance of the model's shared worker (shared-epoch.ts). */
  epoch?: number;
  notShared?: string;
}

/** The name of the shared worker that hosts the model of `key`, in its `epoch`. */
export function sharedWorkerName(key: string, epoch: number): string {
  return epoch === 0 ? `tabagent:${key}` : `tabagent@${epoch}:${key}`;
}

/** `crashed`: the epoch of the shared worker this tab saw die, so this one is a new one. */
export async function openHost(place: HostPlace, spec: ModelSpec, launch: WorkerLauncher, crashed?: number): Promise<OpenedHost> {
  const dedicated = (notShared?: string): OpenedHost => ({ worker: startWorker(launch, place.workerUrl), host: 'worker', ...(notShared ? { notShared } : {}) });
  if (!place.shared) return dedicated();
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
