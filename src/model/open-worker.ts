// Starting the model worker from a URL. A page may not start a worker from
// another origin (a CDN), so for those a same-origin blob module imports the
// real worker script (which must then be served with CORS, as CDNs do).
//
// A shared worker is found by its script's URL and its name: a blob URL is
// this page's alone, so a worker script on another origin can never be
// shared by the origin's tabs; it then runs in a dedicated worker of the
// page's own, and the caller (seeing no `port`) says why.
import { WorkerStartError } from '../errors/index.js';
import { messageOf } from '../errors/message-of.js';

/** Ask for a SharedWorker of this name (one per origin and model); the launcher may give a dedicated worker instead. */
export interface SharedPlace {
  name: string;
}

export type WorkerLauncher = (workerUrl?: string | URL, shared?: SharedPlace) => Worker | SharedWorker;

export function workerAt(url: string | URL, shared?: SharedPlace): Worker | SharedWorker {
  const resolved = new URL(url, location.href);
  if (resolved.origin === location.origin) {
    return shared ? new SharedWorker(resolved, { type: 'module', name: shared.name }) : new Worker(resolved, { type: 'module', name: 'tabagent' });
  }
  const trampoline = URL.createObjectURL(new Blob([`import ${JSON.stringify(resolved.href)};`], { type: 'text/javascript' }));
  try {
    return new Worker(trampoline, { type: 'module', name: 'tabagent' });
  } finally {
    // The worker has fetched its script by the time it runs; revoking later would leak it.
    setTimeout(() => URL.revokeObjectURL(trampoline), 60_000);
  }
}

/** A dedicated worker of the page's own. */
export function startWorker(launch: WorkerLauncher, workerUrl?: string | URL): Worker {
  return starting(() => launch(workerUrl) as Worker);
}

/** The shared worker named `shared`, or a dedicated worker where the launcher can start no shared one. */
export function startSharedWorker(launch: WorkerLauncher, workerUrl: string | URL | undefined, shared: SharedPlace): Worker | SharedWorker {
  return starting(() => launch(workerUrl, shared));
}

/** A worker the page may not start (a Content-Security-Policy without worker-src for it) throws at once. */
function starting<T>(launch: () => T): T {
  try {
    return launch();
  } catch (cause) {
    throw new WorkerStartError(`the browser refused to start it (${messageOf(cause)}); check the page's Content-Security-Policy worker-src`, { cause });
  }
}

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

/** A worker of this page's own; `notShared`: why it is not the shared one asked for. */
export function dedicatedHost(launch: WorkerLauncher, workerUrl: string | URL | undefined, notShared?: string): OpenedHost {
  return { worker: startWorker(launch, workerUrl), host: 'worker', ...(notShared ? { notShared } : {}) };
}
