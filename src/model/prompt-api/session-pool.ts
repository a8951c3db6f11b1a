// The Prompt API sessions a model keeps between turns, each with the
// messages it holds. A turn goes to the session that already holds the most
// of its conversation, so only the new turns are sent (a tool loop's hop
// sends its tool results, not the chat again); a session is in one turn's
// hands at a time.
import type { LanguageModelMessage, LanguageModelSession } from './language-model.js';
import { sameMessage } from './session-messages.js';

export interface HeldSession {
  session: LanguageModelSession;
  /** What the session holds, in order: its initial prompts, and every turn since, replies included. */
  fed: LanguageModelMessage[];
}

/** Sessions kept idle: one per chat in use is plenty; the oldest goes first. */
const KEPT = 4;

export class SessionPool {
  #idle: HeldSession[] = [];

  /** The idle session holding the longest start of `messages` (and less than all of it), taken out of the pool. */
  take(messages: LanguageModelMessage[]): HeldSession | undefined {
    let best: HeldSession | undefined;
    for (const held of this.#idle) {
      if (held.fed.length >= messages.length || (best && best.fed.length >= held.fed.length)) continue;
      if (held.fed.every((m, i) => sameMessage(m, messages[i]!))) best = held;
    }
    if (best) this.#idle = this.#idle.filter((h) => h !== best);
    return best;
  }

  give(held: HeldSession): void {
    this.#idle.push(held);
    while (this.#idle.length > KEPT) this.#idle.shift()!.session.destroy();
  }

  clear(): void {
    for (const { session } of this.#idle.splice(0)) session.destroy();
  }
}
