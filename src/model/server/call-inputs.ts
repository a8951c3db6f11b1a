// A server's calls as they are written, told as tabagent's CallInputEvents:
// its tool-input parts give each call's start and deltas; the end waits for
// the call itself, which says where it sits in the turn's calls.
import type { CallInputEvent } from '../../shared/model.js';

export class CallInputs {
  readonly #open = new Map<string, number>();
  #next = 0;

  constructor(private readonly emit: ((event: CallInputEvent) => void) | undefined) {}

  start(id: string, name: string): void {
    if (!this.emit || this.#open.has(id)) return;
    const index = this.#next++;
    this.#open.set(id, index);
    this.emit({ type: 'start', index, name });
  }

  delta(id: string, delta: string): void {
    const index = this.#open.get(id);
    if (index !== undefined && delta) this.emit!({ type: 'delta', index, delta });
  }

  /** The call arrived whole, as the turn's call number `call`; one the provider sent with no input parts is told at once. */
  called(id: string, name: string, input: string, call: number): void {
    if (!this.emit) return;
    if (!this.#open.has(id)) {
      this.start(id, name);
      this.delta(id, input);
    }
    this.emit({ type: 'end', index: this.#open.get(id)!, call });
    this.#open.delete(id);
  }

  /** The turn ended: what was begun and never became a call is none. */
  close(): void {
    for (const index of this.#open.values()) this.emit!({ type: 'end', index, call: null });
    this.#open.clear();
  }
}
