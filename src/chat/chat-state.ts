// This tab's copy of one stored chat — its messages, the answers given to a
// pending turn, its title and version — and the rules that keep it in step
// with the store and with other tabs.
// One class of about 350 lines, kept whole: the rules below are one set, and
// each method keeps part of them; split, they could no longer be read
// beside the code that keeps them.
//
// How work on it settles:
// - One piece of work at a time: after everything queued before it in this
//   tab, holding the chat's lock across tabs.
// - Optimistically: work starts on the copy as it is; its first write names
//   the version it saw, and if another tab (or copy) wrote since, that write
//   is refused before anything happened and the work runs again on a caught-up
//   copy. Work with side effects before its first write asks to catch up first.
// - Once work has written, it is never run again: a later write refused as
//   stale catches up and goes through if the other writer only renamed the
//   chat, and fails with ChatConflictError if it changed the conversation
//   (possible only without Web Locks).
// - The store first, then memory: the copy always holds what is stored.
// - Each hold of the chat's lock is named (`#hold`) in the commits made
//   under it, where the lock excludes other tabs: the store then checks the
//   stored record once a hold, not at every commit (see idb-chat-store.ts).
// - A draft on the record that the running work did not write is an answer a
//   tab left when it closed mid-answer (a live run would hold the lock): it is
//   kept as an interrupted answer before anything else is committed. The
//   store refuses a commit that would drop it, and catching up keeps it.
import { ChatConflictError, ChatNotFoundError, UnknownToolCallError, type AgentClosedError, type ChatClosedError } from '../errors/index.js';
import type { ChatChanges, ChatRecord, ChatStore } from '../store/records.js';
import { StaleChatError } from '../store/stale-chat-error.js';
import type { TabSync } from '../store/tab-sync.js';
import type { AssistantMessage, ChatMessage, ToolCall, ToolResultRecord } from '../shared/chat.js';
import type { JsonValue } from '../shared/json.js';
import { Serial } from '../shared/serial.js';
import type { PendingState } from '../calls/batch-journal.js';

export interface ChatStateInit {
  id: string;
  title: string;
  version: number;
  /** The stored count of writes that dropped messages (ChatRecord.rewound). */
  rewound?: number;
  messages?: ChatMessage[];
  answers?: ToolResultRecord[];
  started?: string[];
  awaiting?: string[];
  kept?: Record<string, JsonValue>;
  store: ChatStore;
  sync: TabSync;
  /** The messages changed (a commit here, or catching up with another tab). */
  onChange: (count: number) => void;
}

/** What a commit sets besides the messages it appends: the pending turn's state, and the title. */
export interface CommitState extends PendingState {
  /** The chat's title, if it has none yet. */
  title?: string;
}

/** A change to the pending turn's state. */
export interface PendingChange {
  answers?: ToolResultRecord[];
  started?: string[];
  awaiting?: string[];
  done?: string[];
  /** What these calls keep to be resumed. */
  kept?: Record<string, JsonValue>;
}

export class ChatState {
  readonly id: string;
  #title: string;
  #version: number;
  /** Writes that dropped messages, as stored when this copy last looked: another count means another copy rewound. */
  #rewound: number;
  readonly #messages: ChatMessage[];
  /** Answers given so far to the pending turn's calls, by call id. */
  readonly #answers = new Map<string, ToolResultRecord>();
  /** Pending calls whose handler started (as stored): unanswered, they were interrupted. */
  #started = new Set<string>();
  /** Pending calls waiting for a person's approval (as stored). */
  #awaiting = new Set<string>();
  /** What started calls kept to be resumed (as stored). */
  #kept = new Map<string, JsonValue>();
  readonly #store: ChatStore;
  readonly #sync: TabSync;
  readonly #onChange: (count: number) => void;
  readonly #queue = new Serial();
  /** Writes the running work made: once it has made one, it must never run again. */
  #written = 0;
  /** The running work kept a draft (saveDraft) that its next commit ends. */
  #drafting = false;
  #closed: ChatClosedError | AgentClosedError | null = null;
  /** While work of this copy holds the chat's lock (across tabs, or this tab's queue without Web Locks): a name for that hold. */
  #hold: object | undefined;
  /** The chat was deleted under this copy's running work: nothing more of it may be written. */
  #deleted = false;
  /** Who this copy is, to the tab sync (not the copy itself: the sync must not keep it alive). */
  readonly #token = {};
  readonly #unsubscribe: () => void;

  constructor(init: ChatStateInit) {
    this.id = init.id;
    this.#title = init.title;
    this.#version = init.version;
    this.#rewound = init.rewound ?? 0;
    this.#messages = [...(init.messages ?? [])];
    for (const answer of init.answers ?? []) this.#answers.set(answer.callId, answer);
    this.#started = new Set(init.started);
    this.#awaiting = new Set(init.awaiting);
    this.#kept = new Map(Object.entries(init.kept ?? {}));
    this.#store = init.store;
    this.#sync = init.sync;
    this.#onChange = init.onChange;
    // Another tab (or copy) committed: catch up when idle. Weakly, so a chat
    // the app drops can be collected; then it unsubscribes itself.
    const self = new WeakRef(this);
    this.#unsubscribe = init.sync.subscribe(this.id, this.#token, () => self.deref()?.catchUpWhenIdle());
    unsubscribeWhenCollected.register(this, this.#unsubscribe, this.#token);
  }

  get title(): string {
    return this.#title;
  }

  /** The messages, read-only: change them with `commit`. */
  get messages(): readonly ChatMessage[] {
    return this.#messages;
  }

  /** The last turn, when it has calls. */
  get pendingTurn(): AssistantMessage | undefined {
    const last = this.#messages.at(-1);
    return last?.role === 'assistant' && last.toolCalls.length ? last : undefined;
  }

  /** Calls of the last turn still waiting for an answer; `interrupted` where a handler started and never finished. */
  get pendingToolCalls(): ToolCall[] {
    const waiting = this.pendingTurn?.toolCalls.filter((c) => !this.#answers.has(c.id)) ?? [];
    return waiting.map((c) => (this.#started.has(c.id) ? { ...c, interrupted: true, ...(this.#kept.has(c.id) ? { resumable: true } : {}) } : this.#awaiting.has(c.id) ? { ...c, awaitingApproval: true } : c));
  }

  /** What a started call kept to be resumed, if anything. */
  keptFor(callId: string): JsonValue | undefined {
    return this.#kept.get(callId);
  }

  get answers(): ToolResultRecord[] {
    return [...this.#answers.values()];
  }

  /** Pending calls whose handler started and has not ended (as stored). */
  get started(): string[] {
    return [...this.#started];
  }

  /** Pending calls waiting for approval (as stored). */
  get awaiting(): string[] {
    return [...this.#awaiting];
  }

  /** The pending calls these ids name; throws (changing nothing) on any unknown, answered or repeated id. */
  claim(ids: readonly unknown[]): ToolCall[] {
    const pending = this.pendingToolCalls;
    const seen = new Set<string>();
    return ids.map((id) => {
      const call = typeof id === 'string' && !seen.has(id) ? pending.find((c) => c.id === id) : undefined;
      if (!call) throw new UnknownToolCallError(String(id), pending.map((c) => c.id));
      seen.add(call.id);
      return call;
    });
  }

  /**
   * The pending turn's state after a change, for `commit`: these answers
   * added, these calls started, waiting for approval, or done (neither), the
   * rest as they are.
   */
  pendingAfter(change: PendingChange): CommitState {
    const answers = [...this.answers, ...(change.answers ?? [])];
    const settled = new Set([...answers.map((a) => a.callId), ...(change.done ?? [])]);
    const keep = (ids: string[], more: string[] = []) => [...new Set([...ids, ...more])].filter((id) => !settled.has(id));
    const started = keep(this.started, change.started).filter((id) => !change.awaiting?.includes(id));
    const awaiting = keep(this.awaiting, change.awaiting).filter((id) => !change.started?.includes(id));
    // Only a started call keeps anything (a resumed one keeps what it had).
    const kept = Object.fromEntries([...this.#kept, ...Object.entries(change.kept ?? {})].filter(([id]) => started.includes(id)));
    return { answers, started, awaiting, kept };
  }

  /**
   * Run `work` in turn, under the chat's lock (see the rules at the top).
   * `catchUp`: read what other tabs wrote before the work starts (work with
   * side effects before its first write, which must not run on a stale copy).
   */
  exclusive<T>(work: () => Promise<T>, { signal, catchUp = false }: { signal?: AbortSignal; catchUp?: boolean } = {}): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closed);
    return this.#queue.run(
      () =>
        this.#sync.exclusive(
          this.id,
          async () => {
            if (this.#closed) throw this.#closed;
            // A draft an earlier work left (its last commit failed) is not this work's to drop.
            this.#drafting = false;
            this.#hold = {};
            try {
              if (catchUp) await this.#catchUp();
              for (let attempt = 1; ; attempt++) {
                this.#written = 0;
                try {
                  return await work();
                } catch (error) {
                  if (!(error instanceof StaleChatError) || attempt === 3 || this.#written > 0) throw error;
                  await this.#catchUp();
                }
              }
            } finally {
              this.#hold = undefined;
            }
          },
          signal,
        ),
      signal,
    );
  }

  /**
   * Append messages and set the pending turn's answers and started calls
   * (none, unless given), in one write. `title`: only if the chat has none.
   */
  async commit(messages: ChatMessage[], state: CommitState = {}): Promise<void> {
    this.#writable();
    const { answers = [], started = [], awaiting = [], kept, title } = state;
    const endsDraft = this.#drafting;
    const append = () => this.#store.append(this.id, messages, { expectedVersion: this.#version, answers, started, awaiting, ...(kept ? { kept } : {}), updatedAt: Date.now(), title, endsDraft, owner: this.#owner() });
    try {
      this.#version = await append();
    } catch (error) {
      if (!(error instanceof StaleChatError) || this.#written === 0) throw error;
      // Work that already wrote cannot start over. A rename elsewhere changes
      // nothing it relies on; anything else does.
      const pendingState = () => [this.#messages.length, [...this.#answers.keys()], [...this.#started], [...this.#awaiting]].join('|');
      const before = pendingState();
      await this.#catchUp();
      if (pendingState() !== before) {
        throw new ChatConflictError(this.id);
      }
      this.#version = await append();
    }
    this.#committed(messages, state);
  }

  /** A commit is stored: the copy takes it too, and others hear of it. */
  #committed(messages: ChatMessage[], { answers = [], started = [], awaiting = [], kept = {}, title }: CommitState): void {
    this.#written++;
    this.#drafting = false;
    this.#messages.push(...messages);
    this.#answers.clear();
    for (const answer of answers) this.#answers.set(answer.callId, answer);
    this.#started = new Set(started);
    this.#awaiting = new Set(awaiting);
    this.#kept = new Map(Object.entries(kept));
    if (title && !this.#title) this.#title = title;
    this.#sync.announce(this.id, this.#token);
    this.#onChange(this.#messages.length);
  }

  /** Keep the answer being written; best effort, outside the version count (only the running work writes it). */
  saveDraft(text: string): Promise<void> {
    if (this.#deleted) return Promise.reject(new ChatNotFoundError(this.id));
    this.#drafting = true;
    return this.#store.saveDraft(this.id, text);
  }

  /**
   * Drop the messages from position `count` on, and the pending turn's
   * answers, and append `messages` in their place: one write, all or none.
   */
  async rewind(count: number, messages: ChatMessage[] = []): Promise<void> {
    this.#writable();
    this.#version = await this.#store.rewind(this.id, count, messages, { expectedVersion: this.#version, answers: [], updatedAt: Date.now(), endsDraft: this.#drafting, owner: this.#owner() });
    this.#rewound++;
    this.#messages.splice(count);
    this.#committed(messages, {});
  }

  /**
   * The answer a run was writing when its tab closed becomes an interrupted
   * turn (catching up does it). Skipped while another tab holds the chat (its
   * run is still writing, and its own commit ends the draft).
   */
  async recoverDraft(): Promise<void> {
    if (this.#closed) return;
    await this.#sync.ifAvailable(this.id, () => this.#catchUp());
  }

  /** Change the title or the stored tool list: neither changes the conversation. */
  async update(changes: ChatChanges): Promise<void> {
    this.#writable();
    this.#version = await this.#store.update(this.id, changes);
    if (changes.title !== undefined) this.#title = changes.title;
    this.#sync.announce(this.id, this.#token);
  }

  /** Work of this copy holds the chat's lock now. */
  get holding(): boolean {
    return this.#hold !== undefined;
  }

  /** The hold, for the store, where it keeps other tabs out: without Web Locks it does not, and every commit is checked. */
  #owner(): object | undefined {
    return this.#sync.acrossTabs ? this.#hold : undefined;
  }

  /**
   * The chat is being deleted while this copy's work holds its lock: that
   * work writes nothing more (its commits no longer read the record, so one
   * would put the chat back), and the next write fails as on a deleted chat.
   */
  markDeleted(): void {
    this.#deleted = true;
  }

  #writable(): void {
    if (this.#deleted) throw new ChatNotFoundError(this.id);
  }

  /** No more work; what is queued rejects with `error`. */
  close(error: ChatClosedError | AgentClosedError): void {
    this.#closed ??= error;
    this.#unsubscribe();
    unsubscribeWhenCollected.unregister(this.#token);
  }

  catchUpWhenIdle(): void {
    void this.exclusive(() => this.#catchUp()).catch(() => undefined);
  }

  /**
   * Load what other tabs committed since this copy last looked, and keep an
   * answer a closed tab left as the interrupted answer. Runs holding the
   * chat's lock (or the tab's, without Web Locks).
   */
  async #catchUp(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const record = await this.#load();
      if (!record.draft || this.#drafting) return;
      try {
        return await this.#keepLeftDraft(record.draft);
      } catch (error) {
        // Another writer got in first (possible only without Web Locks): look again.
        if (!(error instanceof StaleChatError) || attempt === 3) throw error;
      }
    }
  }

  /** The draft a closed tab left, committed as its interrupted answer: this ends the draft. */
  async #keepLeftDraft({ text, updatedAt }: { text: string; updatedAt: number }): Promise<void> {
    const turn: ChatMessage = { role: 'assistant', raw: text, text, reasoning: '', toolCalls: [], finishReason: 'abort', createdAt: updatedAt };
    this.#version = await this.#store.append(this.id, [turn], { expectedVersion: this.#version, answers: [], updatedAt: Date.now(), endsDraft: true });
    this.#committed([turn], {});
  }

  /** Make this copy what is stored; returns the record it read. */
  async #load(): Promise<ChatRecord> {
    const record = await this.#store.get(this.id);
    if (!record) throw new ChatNotFoundError(this.id);
    this.#title = record.title;
    this.#version = record.version;
    // Rewound elsewhere: what this copy holds may differ anywhere, however long the chat is now.
    const rewound = (record.rewound ?? 0) !== this.#rewound;
    const known = this.#messages.length;
    const started = record.started ?? [];
    const awaiting = record.awaiting ?? [];
    const kept = record.kept ?? {};
    if (rewound || record.messageCount !== known || !sameAnswers(record.answers, this.#answers) || !sameIds(started, this.#started) || !sameIds(awaiting, this.#awaiting) || !sameIds(Object.keys(kept), new Set(this.#kept.keys()))) {
      const from = !rewound && record.messageCount > known ? known : 0;
      const more = await this.#store.messages(this.id, from);
      this.#messages.splice(from, Infinity, ...more);
      this.#rewound = record.rewound ?? 0;
      this.#answers.clear();
      for (const answer of record.answers) this.#answers.set(answer.callId, answer);
      this.#started = new Set(started);
      this.#awaiting = new Set(awaiting);
      this.#kept = new Map(Object.entries(kept));
      this.#onChange(this.#messages.length);
    }
    return record;
  }
}

const unsubscribeWhenCollected = new FinalizationRegistry<() => void>((unsubscribe) => unsubscribe());

function sameIds(stored: readonly string[], held: ReadonlySet<string>): boolean {
  return stored.length === held.size && stored.every((id) => held.has(id));
}

function sameAnswers(stored: readonly ToolResultRecord[], held: ReadonlyMap<string, ToolResultRecord>): boolean {
  return stored.length === held.size && stored.every((a) => held.has(a.callId));
}
