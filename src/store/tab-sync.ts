// Tabs that share a chat database: runs on one chat take a Web Lock, so two
// tabs never interleave on it, and a commit is announced over a
// BroadcastChannel so other tabs (and other Chat objects in this tab) pick up
// the new messages.
import { Serial } from '../shared/serial.js';

/**
 * How long news of commits waits for more before it goes to other tabs. A run
 * commits twice a hop, each post costs this thread tens of µs (a run's next
 * step should not wait on it), and each notice has every other tab showing
 * the chat read it again; a person sees no difference under a frame.
 */
const GATHER_MS = 16;

type Listener = () => void;

interface LockManagerLike {
  request<T>(name: string, options: { signal?: AbortSignal; ifAvailable?: boolean }, callback: (lock: unknown) => Promise<T>): Promise<T>;
}

export class TabSync {
  #channel: BroadcastChannel | null;
  /** Per chat: each Chat object (the owner) and what to call when the chat changes. */
  readonly #listeners = new Map<string, Map<object, Listener>>();
  /** Per chat, without Web Locks: this tab's queue stands in for the lock. */
  readonly #localLocks = new Map<string, Serial>();
  readonly #locks: LockManagerLike | undefined;
  /** Chats announced to this tab, not yet to others. */
  readonly #unsent = new Set<string>();
  #gathering: ReturnType<typeof setTimeout> | undefined;

  /** `shared`: other tabs see the same store (IndexedDB), so tell them about commits. */
  constructor(
    private readonly scope: string,
    shared: boolean,
  ) {
    this.#locks = shared ? (globalThis.navigator as Navigator & { locks?: LockManagerLike } | undefined)?.locks : undefined;
    this.#channel = shared && typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(`tabagent:${scope}`) : null;
    if (this.#channel) {
      this.#channel.onmessage = (event: MessageEvent<{ chatId?: unknown }>) => {
        if (typeof event.data?.chatId === 'string') this.#notify(event.data.chatId);
      };
    }
  }

  /** The chat's lock excludes other tabs (Web Locks exist), not only other work in this tab. */
  get acrossTabs(): boolean {
    return this.#locks !== undefined;
  }

  /** Run `work` holding the chat's lock (across tabs when Web Locks exist, else in this tab). */
  exclusive<T>(chatId: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const name = `tabagent:${this.scope}:${chatId}`;
    if (this.#locks) return this.#locks.request(name, signal ? { signal } : {}, work);
    let queue = this.#localLocks.get(name);
    if (!queue) this.#localLocks.set(name, (queue = new Serial()));
    const local = queue;
    const run = local.run(work, signal);
    // Forget an idle chat's queue, so closed chats leave nothing behind.
    const forget = () => {
      if (!local.busy && this.#localLocks.get(name) === local) this.#localLocks.delete(name);
    };
    run.then(forget, forget);
    return run;
  }

  /** Run `work` holding the chat's lock if no one holds it now; else skip it and resolve undefined. */
  ifAvailable<T>(chatId: string, work: () => Promise<T>): Promise<T | undefined> {
    const name = `tabagent:${this.scope}:${chatId}`;
    if (this.#locks) return this.#locks.request(name, { ifAvailable: true }, (lock) => (lock ? work() : Promise.resolve(undefined)));
    return this.#localLocks.get(name)?.busy ? Promise.resolve(undefined) : this.exclusive(chatId, work);
  }

  /**
   * Say that the chat changed: other Chat objects in this tab hear it at
   * once, other tabs once GATHER_MS have passed, with whatever else changed
   * meanwhile (one notice a chat).
   */
  announce(chatId: string, from: object): void {
    if (this.#channel) {
      this.#unsent.add(chatId);
      if (this.#gathering === undefined) {
        this.#gathering = setTimeout(this.#send, GATHER_MS);
        // A tab closed meanwhile still sends what it gathered.
        globalThis.addEventListener?.('pagehide', this.#send);
      }
    }
    this.#notify(chatId, from);
  }

  readonly #send = (): void => {
    clearTimeout(this.#gathering);
    this.#gathering = undefined;
    globalThis.removeEventListener?.('pagehide', this.#send);
    for (const chatId of this.#unsent) this.#channel?.postMessage({ chatId });
    this.#unsent.clear();
  };

  subscribe(chatId: string, owner: object, listener: Listener): () => void {
    let owners = this.#listeners.get(chatId);
    if (!owners) this.#listeners.set(chatId, (owners = new Map()));
    owners.set(owner, listener);
    return () => {
      owners.delete(owner);
      if (owners.size === 0) this.#listeners.delete(chatId);
    };
  }

  /** Stop: nothing more is announced or heard (a commit that lands after the agent closed is not an error). */
  close(): void {
    this.#send();
    this.#channel?.close();
    this.#channel = null;
    this.#listeners.clear();
  }

  #notify(chatId: string, from?: object): void {
    for (const [owner, listener] of this.#listeners.get(chatId) ?? []) {
      if (owner !== from) listener();
    }
  }
}
