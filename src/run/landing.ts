// A commit still on its way to disk while the run goes on: the next hop's
// request is built and sent meanwhile, and whatever the person would see of
// that hop waits for the commit, so nothing is shown that the disk might not
// get, and nothing shown goes before what it follows.
import type { ChatMessage } from '../shared/chat.js';

export class Landing {
  #landed = false;
  #failed = false;
  readonly #held: Array<() => void> = [];
  /** Settles once the write has landed and what waited for it has run; rejects with the write's error. */
  readonly done: Promise<void>;

  /** `messages`: what the write appends (the next request needs them before the chat's copy has them). */
  constructor(
    write: Promise<void>,
    readonly messages: readonly ChatMessage[],
    onLanded: () => void,
  ) {
    this.done = write.then(
      () => {
        this.#landed = true;
        onLanded();
        for (const show of this.#held.splice(0)) show();
      },
      (error: unknown) => {
        this.#failed = true;
        this.#held.length = 0;
        throw error;
      },
    );
    // Whoever waits on it hears of a failure; an unawaited one is no unhandled rejection.
    this.done.catch(() => undefined);
  }

  get landed(): boolean {
    return this.#landed;
  }

  /** Run `show` now if the write has landed, else once it lands, in order; never if it fails. */
  after(show: () => void): void {
    if (this.#landed) show();
    else if (!this.#failed) this.#held.push(show);
  }
}
