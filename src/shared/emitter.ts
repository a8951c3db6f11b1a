// A small typed event emitter: `on` returns the unsubscribe function.
export class Emitter<Events extends { [K in keyof Events]: unknown }> {
  readonly #listeners = new Map<keyof Events, Set<(event: never) => void>>();

  on<K extends keyof Events>(type: K, listener: (event: Events[K]) => void): () => void {
    let set = this.#listeners.get(type);
    if (!set) this.#listeners.set(type, (set = new Set()));
    set.add(listener as (event: never) => void);
    return () => void set.delete(listener as (event: never) => void);
  }

  /** Listeners run in order; one that throws does not stop the others or the run. */
  protected emit<K extends keyof Events>(type: K, event: Events[K]): void {
    for (const listener of this.#listeners.get(type) ?? []) {
      try {
        (listener as (event: Events[K]) => void)(event);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
