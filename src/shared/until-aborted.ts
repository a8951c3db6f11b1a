/**
 * Settles like `value`, or rejects with the signal's reason once it aborts:
 * a stopped run does not wait for work that ignores its signal (the work goes
 * on, unheard).
 */
export function untilAborted<T>(value: T | Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return Promise.resolve(value);
  if (signal.aborted) return Promise.reject(signal.reason);
  if (!(value instanceof Promise)) return Promise.resolve(value);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    value.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
