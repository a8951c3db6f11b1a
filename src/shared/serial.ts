// The one "one at a time" primitive: every queue in tabagent (a chat's work,
// the worker's generations, restarts, hooks, journal writes, a tab's chat
// locks) is one of these.
//
// How it settles:
// - A piece of work starts once every piece queued before it has settled,
//   fulfilled or rejected; a failure never blocks the queue.
// - A piece whose signal aborts while it waits never starts, and its promise
//   rejects at once with the signal's reason (a waiting caller need not wait
//   its turn to hear).
// - A piece that has started settles as its work settles, abort or not: the
//   work owns its cleanup.
export class Serial {
  #tail: Promise<unknown> = Promise.resolve();
  #waiting = 0;

  /** Work queued or running. */
  get busy(): boolean {
    return this.#waiting > 0;
  }

  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.#waiting++;
    let started = false;
    const run = this.#tail.then(() => {
      signal?.throwIfAborted();
      started = true;
      return work();
    });
    const tail = run.then(
      () => void this.#waiting--,
      () => void this.#waiting--,
    );
    this.#tail = tail;
    if (!signal) return run;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (!started) reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }
}
