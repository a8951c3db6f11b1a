// A stand-in for `Worker` in a shared worker, where Chromium has none
// (measured in Chromium 156: "Worker is not defined"). wllama starts its
// workers (llama.cpp's, and one that writes downloads) from blob URLs of
// module code that talks through a bare `postMessage` and `onmessage`; this
// runs that code in the shared worker's own thread instead, as a module
// imported from a blob URL (no eval: a policy without 'unsafe-eval' allows it
// where it allows `script-src blob:`), with a prologue that gives the code its
// own `postMessage`, `onmessage` and `self`, and a MessageChannel between it
// and wllama so messages still cross as they would between threads (cloned,
// buffers transferred, one task later).
//
// How it settles:
// - Messages posted before the code has loaded wait in the channel, in order.
// - A synchronous throw in the code's `onmessage` reaches `onerror`, as a
//   worker's would, never the shared worker's global `error` (which ends it).
// - Code that fails to load reaches `onerror`.
// - `terminate` closes the channel and lets go of what the code held (a module
//   stays in the realm's module map for good; its wasm memory must not).

/** What the prologue finds under its id. */
interface Inside {
  port: MessagePort;
  self: { name: string; location: Location | undefined };
}

interface Exports {
  __tabagentInbox(event: MessageEvent): void;
  __tabagentRelease(): void;
}

const REGISTRY = Symbol.for('tabagent.in-thread-worker');
/** Where each prologue finds its port: made on first use, so a realm that never uses the stand-in is left as it was. */
const registry = (): Map<number, Inside> => ((globalThis as unknown as Record<symbol, Map<number, Inside>>)[REGISTRY] ??= new Map());
let nextId = 1;

/** The blobs behind this realm's blob URLs, so the stand-in reads code without fetching it (connect-src may refuse blob:). */
const blobs = new Map<string, Blob>();

/**
 * What the code's top level declares that may hold memory (llama.cpp's
 * Module and its bound calls; the download writer's file handle): let go of
 * on terminate. Names the code lacks throw, and are skipped.
 */
const HELD = ['Module', 'wllamaMalloc', 'wllamaStart', 'wllamaAction', 'wllamaExit', 'wllamaDebug', 'pendingReadPromise', 'pendingReadResolve', 'pendingReadReject', 'accessHandle'];

function wrap(id: number, code: string): string {
  const prologue = [
    `const __tabagent = globalThis[Symbol.for('tabagent.in-thread-worker')].get(${id});`,
    `globalThis[Symbol.for('tabagent.in-thread-worker')].delete(${id});`,
    'const postMessage = (data, transfer) => __tabagent.port.postMessage(data, transfer);',
    'let onmessage = null;',
    'const self = __tabagent.self;',
  ].join('\n');
  const release = HELD.map((name) => `try { ${name} = null; } catch {}`).join(' ');
  const epilogue = [
    'export function __tabagentInbox(event) { onmessage?.(event); }',
    `export function __tabagentRelease() { onmessage = null; ${release} }`,
  ].join('\n');
  // Newlines around the code: a last line comment must not swallow the epilogue.
  return `${prologue}\n${code}\n;\n${epilogue}\n`;
}

export class InThreadWorker {
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent | { type: 'error'; message: string; error?: unknown }) => void) | null = null;
  readonly #outside: MessagePort;
  readonly #inside: MessagePort;
  #exports: Exports | null = null;
  #terminated = false;
  /** navigator.gpu as it was: llama.cpp's CPU build hides it from the whole realm, and this puts it back. */
  readonly #gpu = gpuDescriptor();

  constructor(url: string | URL) {
    const { port1, port2 } = new MessageChannel();
    this.#outside = port1;
    this.#inside = port2;
    port1.onmessage = (event) => this.onmessage?.(event);
    void this.#start(String(url));
  }

  postMessage(data: unknown, transfer?: Transferable[] | StructuredSerializeOptions): void {
    if (this.#terminated) return;
    this.#outside.postMessage(data, transfer as Transferable[]);
  }

  terminate(): void {
    if (this.#terminated) return;
    this.#terminated = true;
    this.#outside.close();
    this.#inside.close();
    this.#exports?.__tabagentRelease();
    this.#exports = null;
    restoreGpu(this.#gpu);
  }

  async #start(url: string): Promise<void> {
    const id = nextId++;
    let moduleUrl: string | undefined;
    try {
      const blob = blobs.get(url);
      blobs.delete(url);
      const code = blob ? await blob.text() : await (await fetch(url)).text();
      registry().set(id, { port: this.#inside, self: { name: '', location: (globalThis as { location?: Location }).location } });
      moduleUrl = URL.createObjectURL(new Blob([wrap(id, code)], { type: 'text/javascript' }));
      const exports = (await import(/* @vite-ignore */ moduleUrl)) as Exports;
      if (this.#terminated) return exports.__tabagentRelease();
      this.#exports = exports;
      this.#inside.onmessage = (event) => {
        try {
          exports.__tabagentInbox(event);
        } catch (error) {
          this.onerror?.({ type: 'error', message: error instanceof Error ? error.message : String(error), error });
        }
      };
    } catch (error) {
      registry().delete(id);
      this.onerror?.({ type: 'error', message: `the worker's code did not load: ${error instanceof Error ? error.message : String(error)}`, error });
    } finally {
      if (moduleUrl) URL.revokeObjectURL(moduleUrl);
    }
  }
}

/**
 * Makes `Worker` the stand-in, in a realm that has none (a shared worker's),
 * and keeps the blobs behind its blob URLs for it. Call before wllama starts
 * a worker; a realm with a Worker of its own is left alone.
 */
export function installInThreadWorker(): void {
  const scope = globalThis as { Worker?: unknown };
  if (scope.Worker !== undefined) return;
  const create = URL.createObjectURL.bind(URL);
  const revoke = URL.revokeObjectURL.bind(URL);
  URL.createObjectURL = (object: Blob | MediaSource) => {
    const url = create(object);
    if (object instanceof Blob) blobs.set(url, object);
    return url;
  };
  URL.revokeObjectURL = (url: string) => {
    blobs.delete(url);
    revoke(url);
  };
  scope.Worker = InThreadWorker;
}

/**
 * Whether this realm may import a module from a blob URL, as the stand-in
 * does: a shared worker's policy (the Content-Security-Policy its script was
 * served with) may refuse it (`script-src` without `blob:`). Asked before
 * wllama starts, which would wait forever on code that never loaded.
 */
export async function blobModulesAllowed(): Promise<boolean> {
  const url = URL.createObjectURL(new Blob(['export {};'], { type: 'text/javascript' }));
  try {
    await import(/* @vite-ignore */ url);
    return true;
  } catch {
    return false;
  } finally {
    URL.revokeObjectURL(url);
  }
}

type GpuDescriptor = { proto: object; descriptor: PropertyDescriptor | undefined } | null;

function gpuDescriptor(): GpuDescriptor {
  const proto = (globalThis as { WorkerNavigator?: { prototype: object } }).WorkerNavigator?.prototype;
  return proto ? { proto, descriptor: Object.getOwnPropertyDescriptor(proto, 'gpu') } : null;
}

function restoreGpu(saved: GpuDescriptor): void {
  if (!saved) return;
  if (saved.descriptor) Object.defineProperty(saved.proto, 'gpu', saved.descriptor);
  else delete (saved.proto as { gpu?: unknown }).gpu;
}
