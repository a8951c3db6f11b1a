// Starting the worker and keeping honest track of it. comlink never rejects a
// call to a dead worker, so every call goes through `track`, which rejects
// with WorkerCrashedError when the worker errors or — while a watched call (a
// generation) waits — stops answering pings, and with the reason it was given
// when the page ends it on purpose (closed, restarted, replaced).
import { releaseProxy, transfer, wrap, type Remote } from 'comlink';
import { WorkerCrashedError, WorkerStartError } from '../errors/index.js';
import { installErrorTransfer } from '../rpc/error-transfer.js';
import { isReady, type WorkerApi } from '../rpc/worker-protocol.js';
import { GenerationClient } from '../rpc/generation-channel.js';

export interface Liveness {
  /** How long a ping may go unanswered, while a generation waits, before the worker counts as dead. */
  timeoutMs: number;
}

export class WorkerConnection {
  readonly host: Remote<WorkerApi>;
  readonly generations: GenerationClient;
  #pending = new Set<(error: Error) => void>();
  #dead: Error | null = null;
  #watched = 0;
  #heartbeat: ReturnType<typeof setTimeout> | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly liveness: Liveness,
    client: string | undefined,
  ) {
    this.host = wrap<WorkerApi>(worker);
    const channel = new MessageChannel();
    this.generations = new GenerationClient(channel.port1);
    void this.track(this.host.connect(transfer(channel.port2, [channel.port2]), client)).catch(() => undefined);
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.terminate(new WorkerCrashedError(event.message || 'the worker threw an uncaught error'));
    });
    worker.addEventListener('messageerror', () => this.terminate(new WorkerCrashedError('a message from the worker could not be read')));
  }

  /**
   * Start a worker and wait for its ready message (or its failure, or the
   * timeout). Aborting `signal` ends the worker at once and rejects with the
   * signal's reason. `client`: the lock a shared worker's client holds while it lives (model/client-lock.ts).
   */
  static async start(worker: Worker, timeoutMs: number, liveness: Liveness = { timeoutMs: 15_000 }, signal?: AbortSignal, client?: string): Promise<WorkerConnection> {
    installErrorTransfer();
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        clearTimeout(timer);
        worker.removeEventListener('message', onMessage);
        worker.removeEventListener('error', onError);
        signal?.removeEventListener('abort', onAbort);
        if (error) {
          worker.terminate();
          reject(error);
        } else resolve();
      };
      const onMessage = (event: MessageEvent) => {
        if (isReady(event.data)) done();
      };
      const onError = (event: ErrorEvent) => {
        event.preventDefault();
        done(new WorkerStartError(event.message || 'the worker script failed to load (missing, blocked by Content-Security-Policy, or not a module)'));
      };
      const onAbort = () => done(signal!.reason as Error);
      const timer = setTimeout(() => done(new WorkerStartError(`no ready message within ${timeoutMs} ms`)), timeoutMs);
      worker.addEventListener('message', onMessage);
      worker.addEventListener('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort();
    });
    return new WorkerConnection(worker, liveness, client);
  }

  get alive(): boolean {
    return this.#dead === null;
  }

  /**
   * Settle like `promise`, or reject with WorkerCrashedError if the worker dies
   * first. `watch`: also ping the worker while waiting (a worker that closed
   * itself or hangs sends no error event; only silence tells).
   */
  track<T>(promise: Promise<T>, watch = false): Promise<T> {
    if (this.#dead) return Promise.reject(this.#dead);
    if (watch && this.#watched++ === 0) this.#beat();
    return new Promise<T>((resolve, reject) => {
      this.#pending.add(reject);
      promise.then(resolve, reject).finally(() => {
        this.#pending.delete(reject);
        if (watch && --this.#watched === 0) clearTimeout(this.#heartbeat);
      });
    });
  }

  #beat(): void {
    this.#heartbeat = setTimeout(() => {
      if (this.#dead || this.#watched === 0) return;
      const silence = setTimeout(
        () => this.terminate(new WorkerCrashedError(`it stopped answering for ${this.liveness.timeoutMs} ms`)),
        this.liveness.timeoutMs,
      );
      this.host.ping().then(
        () => {
          clearTimeout(silence);
          if (this.#watched > 0) this.#beat();
        },
        () => clearTimeout(silence),
      );
    }, this.liveness.timeoutMs / 3);
  }

  /** Stop the worker; every pending call rejects with `reason`. */
  terminate(reason: Error): void {
    if (this.#dead) return;
    this.#dead = reason;
    clearTimeout(this.#heartbeat);
    this.worker.terminate();
    this.host[releaseProxy]();
    for (const reject of this.#pending) reject(reason);
    this.#pending.clear();
  }
}
