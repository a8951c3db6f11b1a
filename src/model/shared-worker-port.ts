// A connection to a shared worker, shaped as the dedicated Worker that
// WorkerConnection drives: messages travel on the tab's own port; the
// shared worker's errors (its script failed to load) and the host's word
// that it crashed arrive as error events; and ending it is this tab leaving
// (its port closed, its client lock released), never ending the worker
// other tabs use.
import { isCrashed } from '../rpc/worker-protocol.js';

export function sharedWorkerPort(shared: SharedWorker, leave: () => void): Worker {
  const { port } = shared;
  const errors = new EventTarget();
  const fail = (message: string) => errors.dispatchEvent(Object.assign(new Event('error', { cancelable: true }), { message }));
  shared.addEventListener('error', (event) => fail((event as ErrorEvent).message ?? ''));
  port.addEventListener('message', (event: MessageEvent) => {
    if (isCrashed(event.data)) fail(event.data.reason);
  });
  port.start();
  const target = (type: string): EventTarget => (type === 'error' ? errors : port);
  const endpoint = {
    postMessage: (message: unknown, transfer?: Transferable[]) => port.postMessage(message, transfer ?? []),
    addEventListener: (type: string, listener: EventListenerOrEventListenerObject, options?: AddEventListenerOptions) => target(type).addEventListener(type, listener, options),
    removeEventListener: (type: string, listener: EventListenerOrEventListenerObject, options?: EventListenerOptions) => target(type).removeEventListener(type, listener, options),
    terminate: () => {
      port.close();
      leave();
    },
  };
  return endpoint as unknown as Worker;
}
