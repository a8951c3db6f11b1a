// One open chat on screen: sends a message (or regenerates the last answer),
// shows the reply as it comes from the chat's events, answers the calls that
// come back to the page, and redraws from the store when another tab writes.
import type { Chat, Reply, Tool, ToolCall, ToolResultInput } from '../src/index.js';
import { runFailureText } from './error-text.js';
import { answerOnPage } from './tools.js';
import { whyWaiting } from './waiting.js';
import type { ToolCard } from './ui/tool-card.js';
import type { Transcript } from './ui/transcript.js';
import type { TurnView } from './ui/turn-view.js';

/** What the model reads for calls a reload left unanswered: the page cannot know what they would have said. */
const RELOADED = 'The page was reloaded before this call was answered.';
/** A run that has not started after this long is waiting for something: say what. */
const WAIT_NOTICE_MS = 400;

export interface SessionHooks {
  /** The chat's messages changed (the list's counts and order with them). */
  messages(): void;
  /** The person asked for another answer (the last turn's button). */
  regenerate(): void;
  /** A model is loading, so a send waits for it. */
  modelLoading(): boolean;
}

/** The reply being written: what is on screen of it, and whether the run has begun. */
interface Live {
  turn: TurnView;
  /** The user's bubble and the turn: put back after a redraw of what came before. */
  nodes: Node[];
  /** The message sent, to find it in the store once it is committed; undefined when regenerating. */
  text?: string;
  since: number;
  /** The message is stored: this tab holds the chat, so no other tab writes to it until the run ends. */
  committed: boolean;
  /** The first model call began. */
  started: boolean;
}

export class ChatSession {
  #live: Live | null = null;
  /** Each model call with hop 0 begins a run (a send, an answer to raw calls, a regeneration): keys for its segments. */
  #run = 0;
  /** How many stored messages the transcript shows, to notice what another tab added. */
  #shown = 0;
  #lastShown: number | undefined;
  readonly #unsubscribe: Array<() => void>;

  constructor(
    readonly chat: Chat,
    private readonly transcript: Transcript,
    private readonly hooks: SessionHooks,
  ) {
    // Events arrive synchronously as the run goes, so a step's text and its
    // cards are placed in the order they happened. Steps count on across the
    // answers to a run's calls, and start again at 0 with a new message.
    const key = (step: number) => `${this.#run}:${step}`;
    this.#unsubscribe = [
      chat.on('model-start', ({ step }) => {
        if (!this.#live) return;
        if (step === 0) this.#run++;
        this.#live.started = true;
        this.#live.turn.beginHop(key(step));
      }),
      chat.on('text', ({ step, delta }) => this.#live?.turn.appendText(key(step), delta)),
      chat.on('model-end', ({ toolCalls }) => this.#live?.turn.addCalls(toolCalls)),
      chat.on('tool-start', ({ callId }) => this.card(callId)?.running()),
      chat.on('tool-progress', ({ callId, details }) => this.card(callId)?.progress(details)),
      chat.on('tool-denied', ({ callId, reason }) => this.card(callId)?.denied(reason)),
      chat.on('tool-end', ({ callId, content, isError, durationMs, attempts }) => this.card(callId)?.finished(content, isError, durationMs, attempts)),
      chat.on('context-trimmed', ({ dropped }) => transcript.contextTrimmed(dropped)),
      chat.on('messages', () => {
        this.#onMessages();
        hooks.messages();
      }),
    ];
  }

  readonly toolOf = (name: string): Tool | undefined => this.chat.tools.find((t) => t.name === name);

  /** The card of a call in the reply being written now. */
  card(callId: string): ToolCard | undefined {
    return this.#live?.turn.card(callId);
  }

  /** The chat as stored. `toEnd`: scroll to its end even if the reader had scrolled up. */
  showHistory(toEnd = false): void {
    const messages = this.chat.messages;
    this.transcript.history(messages, this.toolOf, { toEnd, regenerate: () => this.hooks.regenerate() });
    this.#shown = messages.length;
    this.#lastShown = messages.at(-1)?.createdAt;
  }

  /** Send `text` and show the reply as it comes. Errors end up in the transcript, not thrown. */
  async send(text: string, signal: AbortSignal): Promise<void> {
    const user = this.transcript.user(text);
    const turn = this.transcript.turn(this.toolOf);
    await this.#drive({ turn, nodes: [user, turn.element], text, since: Date.now(), committed: false, started: false }, signal, async () => {
      // A raw call left waiting by a reload would block the chat: answer it as lost.
      if (this.chat.pendingToolCalls.length) await this.chat.cancelToolCalls(RELOADED);
      return this.chat.send(text, { signal });
    });
  }

  /** Replace the last answer with a new one, written where the old one was. */
  async regenerate(signal: AbortSignal): Promise<void> {
    const before = this.chat.messages.slice(0, -1);
    const turn = this.transcript.history(before, this.toolOf, { resume: true }) ?? this.transcript.turn(this.toolOf);
    await this.#drive({ turn, nodes: [turn.element], since: Date.now(), committed: false, started: false }, signal, () => this.chat.regenerate({ signal }));
  }

  close(): void {
    for (const off of this.#unsubscribe) off();
    this.chat.close();
  }

  async #drive(live: Live, signal: AbortSignal, first: () => Promise<Reply>): Promise<void> {
    this.#live = live;
    const notice = this.#noticeWaiting(live);
    try {
      let reply = await first();
      while (reply.toolCalls.length) {
        const answered = await this.#answer(reply.toolCalls, signal);
        reply = 'reply' in answered ? answered.reply : await this.chat.sendToolResults(answered.results, { signal });
      }
      this.#live = null;
      this.showHistory();
    } catch (error) {
      this.#live = null;
      // A stopped reply is stored as stopped: draw it from the store, as a reload would.
      if (signal.aborted) this.showHistory();
      else {
        live.turn.fail(runFailureText(error));
        // What is on screen no longer matches the store: the next change redraws it.
        this.#shown = -1;
      }
    } finally {
      clearInterval(notice);
    }
  }

  /** While the run has not begun, say why: the model still loads, or another tab's reply on this chat runs first. */
  #noticeWaiting(live: Live): number {
    let asking = false;
    return window.setInterval(async () => {
      if (live.started || asking || Date.now() - live.since < WAIT_NOTICE_MS) return;
      asking = true;
      const why = this.hooks.modelLoading() ? 'model' : await whyWaiting(this.chat.id);
      asking = false;
      if (live.started || this.#live !== live) return;
      live.turn.waiting(why === 'model' ? 'Waiting for the model to finish loading…' : why === 'other-tab' ? 'Waiting for the other tab: its reply in this chat comes first…' : null);
    }, 200);
  }

  #onMessages(): void {
    const live = this.#live;
    if (!live) {
      // Another tab wrote to this chat while this one was idle: redraw it.
      // (The same count can be a different chat: a regenerated last answer.)
      if (this.chat.messages.length !== this.#shown || this.chat.messages.at(-1)?.createdAt !== this.#lastShown) this.showHistory();
      return;
    }
    // Our message waits for another tab's run on this chat: show that run's
    // commits as they land, with our message and its pending reply kept last.
    if (live.committed || live.text === undefined) return;
    const messages = this.chat.messages;
    const own = messages.findLastIndex((m) => m.role === 'user' && m.content === live.text && m.createdAt >= live.since - 1000);
    if (own !== -1) live.committed = true;
    const before = own === -1 ? messages.length : own;
    // Only our own message was added: what is on screen is right.
    if (before === this.#shown) return;
    this.transcript.history(messages.slice(0, before), this.toolOf);
    this.#shown = before;
    this.transcript.adopt(live.nodes);
  }

  /**
   * A turn came back because some call is not the loop's to run (a raw tool,
   * an unknown name). Its managed calls run here by hand first; then the page
   * answers the rest, which resumes the model.
   */
  async #answer(calls: readonly ToolCall[], signal: AbortSignal): Promise<{ results: ToolResultInput[] } | { reply: Reply }> {
    const managed = calls.filter((c) => this.toolOf(c.name)?.kind === 'managed');
    const forPage = calls.filter((c) => !managed.includes(c));
    let last: Reply | undefined;
    for (const call of managed) last = await this.chat.runTool(call, { signal });
    // Only managed calls (possible only with returnToolRequests): the last runTool already ran the model.
    if (forPage.length === 0 && last) return { reply: last };
    const results = forPage.map((call) => {
      const result = answerOnPage(call);
      this.card(call.id)?.answered(result);
      return { callId: call.id, result };
    });
    return { results };
  }
}
