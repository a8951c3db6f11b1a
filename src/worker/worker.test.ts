// The worker entry, evaluated twice in one realm: a bundler's lazy chunks (the
// engines) import shared code from the entry's chunk by its bare URL, so a
// worker started at a URL with a query (a cache-buster, a policy's `?csp=`)
// runs the entry module a second time. One host must still answer each call,
// and the page must hear one ready message.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isReady } from '../rpc/worker-protocol.js';

/** A dedicated worker's global, as comlink and the entry use it. */
function dedicatedScope() {
  const scope = new EventTarget();
  const posted: unknown[] = [];
  vi.stubGlobal('self', Object.assign(scope, { postMessage: (data: unknown) => void posted.push(data) }));
  vi.stubGlobal('addEventListener', scope.addEventListener.bind(scope));
  vi.stubGlobal('removeEventListener', scope.removeEventListener.bind(scope));
  vi.stubGlobal('postMessage', (data: unknown) => void posted.push(data));
  return { scope, posted };
}

/** A shared worker's global: tabs arrive as connect events, each with its port. */
function sharedScope() {
  const scope = Object.assign(new EventTarget(), { onconnect: null, close: () => undefined });
  vi.stubGlobal('self', scope);
  return scope;
}

/** Evaluates the entry module as a worker at `url` would: each URL is a module of its own. */
const evaluate = (url: string) => import(/* @vite-ignore */ url);

afterEach(() => {
  vi.unstubAllGlobals();
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('tabagent.worker-started')];
});

describe('the worker entry', () => {
  it('evaluated again under another URL, starts no second host: one ready message, one answer per call', async () => {
    const { scope, posted } = dedicatedScope();
    await import('./worker.js');
    // The same file under another URL, as a lazy chunk's import of it would be.
    await evaluate('./worker.js?again');
    expect(posted.filter(isReady)).toHaveLength(1);

    // A comlink call, as the page sends it: every host listening answers it.
    scope.dispatchEvent(new MessageEvent('message', { data: { id: 'ping-1', type: 'APPLY', path: ['ping'], argumentList: [] } }));
    await vi.waitFor(() => expect(posted.filter((m) => (m as { id?: string }).id === 'ping-1')).not.toHaveLength(0));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(posted.filter((m) => (m as { id?: string }).id === 'ping-1')).toEqual([{ id: 'ping-1', type: 'RAW', value: true }]);
  });

  it("in a shared worker, evaluated again, gives a tab that connects one host: one ready message on its port", async () => {
    const scope = sharedScope();
    await evaluate('./worker.js?shared-first');
    await evaluate('./worker.js?shared-second');
    const { port1, port2 } = new MessageChannel();
    const heard: unknown[] = [];
    port1.onmessage = (event) => void heard.push(event.data);
    scope.dispatchEvent(new MessageEvent('connect', { ports: [port2] }));
    await vi.waitFor(() => expect(heard.filter(isReady)).not.toHaveLength(0));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard.filter(isReady)).toHaveLength(1);
    port1.close();
  });
});
