// Starting the model worker from a URL. A page may not start a worker from
// another origin (a CDN), so for those a same-origin blob module imports the
// real worker script (which must then be served with CORS, as CDNs do).
import { WorkerStartError } from '../errors/index.js';
import { messageOf } from '../errors/message-of.js';

export type WorkerLauncher = (workerUrl?: string | URL) => Worker;

export function workerAt(url: string | URL): Worker {
  const resolved = new URL(url, location.href);
  if (resolved.origin === location.origin) return new Worker(resolved, { type: 'module', name: 'tabagent' });
  const trampoline = URL.createObjectURL(new Blob([`import ${JSON.stringify(resolved.href)};`], { type: 'text/javascript' }));
  try {
    return new Worker(trampoline, { type: 'module', name: 'tabagent' });
  } finally {
    // The worker has fetched its script by the time it runs; revoking later would leak it.
    setTimeout(() => URL.revokeObjectURL(trampoline), 60_000);
  }
}

/** A worker the page may not start (a Content-Security-Policy without worker-src for it) throws at once. */
export function startWorker(launch: WorkerLauncher, workerUrl?: string | URL): Worker {
  try {
    return launch(workerUrl);
  } catch (cause) {
    throw new WorkerStartError(`the browser refused to start it (${messageOf(cause)}); check the page's Content-Security-Policy worker-src`, { cause });
  }
}
