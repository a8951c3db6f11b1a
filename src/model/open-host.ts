// Where the model's engine host runs: a worker of the page's own, or, with
// `shared`, the SharedWorker named for the model, which every tab of the
// origin asking for the same model connects to. Where a shared one cannot be
// had, a dedicated worker runs it, and `notShared` says why. The shared
// path (open-shared-host.ts) is loaded on demand: a page that shares no
// model carries none of it.
import type { ModelSpec } from '../rpc/worker-protocol.js';
import { dedicatedHost, type HostPlace, type OpenedHost, type WorkerLauncher } from './open-worker.js';

export type { HostPlace, OpenedHost };

/** `crashed`: the epoch of the shared worker this tab saw die, so this one is a new one. */
export async function openHost(place: HostPlace, spec: ModelSpec, launch: WorkerLauncher, crashed?: number): Promise<OpenedHost> {
  if (!place.shared) return dedicatedHost(launch, place.workerUrl);
  return (await import('./open-shared-host.js')).openSharedHost(place, spec, launch, crashed);
}
