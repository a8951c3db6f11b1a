// The conversation on screen: user bubbles, and assistant turns made of text
// segments (one per model call) and tool cards, in the order they happened.
import type { ChatMessage, ReplyStats, Tool, ToolCall } from '../../src/index.js';
import { h } from './dom.js';
import { formatDuration } from './format.js';
import { renderMarkdown } from './markdown.js';
import { ToolCard, type ToolKind } from './tool-card.js';

/** How close to the bottom (px) still counts as "reading the latest": new text then keeps it in view. */
const FOLLOW_SLACK_PX = 80;

export class Transcript {
  #follow = true;

  constructor(readonly element: HTMLElement) {
    element.addEventListener('scroll', () => {
      this.#follow = element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_SLACK_PX;
    });
  }

  clear(): void {
    this.element.replaceChildren();
    this.#follow = true;
  }

  /** The empty chat: what this page can do, as buttons that ask it. */
  empty(title: string, suggestions: readonly string[], pick: (text: string) => void): void {
    this.clear();
    const list = h('div', { class: 'suggestions' });
    for (const text of suggestions) {
      const button = h('button', { class: 'suggestion', text, attrs: { type: 'button' } });
      button.addEventListener('click', () => pick(text));
      list.append(button);
    }
    this.element.append(h('section', { class: 'empty' }, h('h2', { text: title }), h('p', { text: 'Ask something, or try one of these:' }), list));
  }

  user(text: string): void {
    this.element.querySelector('.empty')?.remove();
    // Plain text: what the user typed is shown exactly as typed.
    this.element.append(h('div', { class: 'message user' }, h('p', { class: 'bubble', text })));
    this.scrollToEnd(true);
  }

  /** A line in the conversation: older messages left the model's memory (they stay here, and stored). */
  contextTrimmed(dropped: number): void {
    this.element.querySelectorAll('.context-note').forEach((note) => note.remove());
    const text = `The ${dropped} earliest messages are no longer in the model's memory (its context window is full). They stay here and in this browser.`;
    this.element.append(h('p', { class: 'context-note', text, attrs: { role: 'status' } }));
    this.scrollToEnd();
  }

  turn(toolOf: (name: string) => Tool | undefined): TurnView {
    this.element.querySelector('.empty')?.remove();
    const turn = new TurnView(toolOf, () => this.scrollToEnd());
    this.element.append(turn.element);
    this.scrollToEnd(true);
    return turn;
  }

  /** A stored conversation, drawn the way it looked live (minus durations, which are not stored). */
  history(messages: readonly ChatMessage[], toolOf: (name: string) => Tool | undefined): void {
    this.clear();
    let turn: TurnView | null = null;
    for (const message of messages) {
      if (message.role === 'user') {
        turn?.settle();
        turn = null;
        this.user(message.content);
      } else if (message.role === 'assistant') {
        turn ??= this.turn(toolOf);
        turn.storedMessage(message.text, message.reasoning, message.toolCalls);
        if (message.finishReason === 'abort') turn.stop();
      } else {
        for (const result of message.results) turn?.card(result.callId)?.finished(result.content, result.isError);
      }
    }
    turn?.settle();
    this.scrollToEnd(true);
  }

  scrollToEnd(force = false): void {
    if (force) this.#follow = true;
    if (this.#follow) this.element.scrollTop = this.element.scrollHeight;
  }
}

/** One text segment: the text of one model call, re-rendered as Markdown as it grows. */
class Segment {
  readonly element = h('div', { class: 'text' });
  #text = '';
  #frame = 0;

  constructor(private readonly changed: () => void) {}

  append(delta: string): void {
    this.#text += delta;
    // Many deltas can land in one frame; render once per frame.
    this.#frame ||= requestAnimationFrame(() => this.flush());
  }

  flush(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.element.replaceChildren(renderMarkdown(this.#text));
    this.changed();
  }
}

export class TurnView {
  readonly element: HTMLElement;
  readonly #body: HTMLElement;
  readonly #typing = h('div', { class: 'typing', attrs: { 'aria-hidden': 'true' } }, h('span'), h('span'), h('span'));
  readonly #footer = h('footer', { class: 'turn-meta' });
  readonly #segments = new Map<string, Segment>();
  readonly #cards = new Map<string, ToolCard>();
  readonly #totals = { modelCalls: 0, toolCalls: 0, completionTokens: 0, ms: 0, decode: 0 };
  #run = 0;

  constructor(
    private readonly toolOf: (name: string) => Tool | undefined,
    private readonly changed: () => void,
  ) {
    this.#body = h('div', { class: 'turn-body' }, this.#typing);
    this.element = h('article', { class: 'message assistant turn', attrs: { 'aria-label': 'Assistant reply' } }, this.#body, this.#footer);
    this.element.dataset.state = 'streaming';
    this.element.setAttribute('aria-busy', 'true');
  }

  /**
   * Each run (the send, then each answer to raw calls) numbers its model calls
   * from 0 again; the run number keeps their segments apart.
   */
  nextRun(): number {
    return ++this.#run;
  }

  /** A model call starts: its text goes in a new segment, after everything shown so far. */
  beginHop(hop: number): void {
    this.#segment(`${this.#run}:${hop}`);
  }

  appendText(run: number, hop: number, delta: string): void {
    this.#segment(`${run}:${hop}`).append(delta);
  }

  /** The calls a model call made, as cards after its text. */
  addCalls(calls: readonly ToolCall[]): void {
    for (const call of calls) {
      const tool = this.toolOf(call.name);
      const kind: ToolKind = !tool ? 'unknown' : tool.kind;
      const card = new ToolCard(call, kind, tool ?? {});
      this.#cards.set(call.id, card);
      this.#insert(card.element);
    }
  }

  card(callId: string): ToolCard | undefined {
    return this.#cards.get(callId);
  }

  /** A stored assistant message. */
  storedMessage(text: string, reasoning: string, calls: readonly ToolCall[]): void {
    if (reasoning) this.#insert(reasoningBlock(reasoning));
    const segment = this.#segment(`stored:${this.#segments.size}`);
    segment.append(text);
    segment.flush();
    this.addCalls(calls);
  }

  /** A thinking model's reasoning, shown folded above the answer it led to. */
  reasoning(text: string): void {
    if (!text) return;
    const last = [...this.#segments.values()].at(-1)?.element ?? this.#typing;
    this.#body.insertBefore(reasoningBlock(text), last);
  }

  /** Add one run's stats to the turn's footer. */
  addStats(stats: ReplyStats): void {
    const t = this.#totals;
    t.modelCalls += stats.modelCalls;
    t.toolCalls += stats.toolCalls;
    t.completionTokens += stats.completionTokens;
    t.ms += stats.modelMs + stats.toolMs;
    t.decode = stats.decodeTokensPerSecond ?? t.decode;
  }

  done(): void {
    const t = this.#totals;
    const parts = [
      plural(t.modelCalls, 'model call'),
      t.toolCalls ? plural(t.toolCalls, 'tool call') : '',
      plural(t.completionTokens, 'token'),
      formatDuration(t.ms),
      t.decode ? `${t.decode.toFixed(1)} tokens/s` : '',
    ];
    this.#footer.textContent = parts.filter(Boolean).join(' · ');
    this.settle('done');
  }

  stop(): void {
    for (const card of this.#cards.values()) card.stopped();
    this.#footer.replaceChildren(h('span', { class: 'tag', text: 'Stopped' }), ' The reply was stopped; what it said so far is kept.');
    this.settle('stopped');
  }

  fail(error: unknown): void {
    const e = error as { name?: string; message?: string };
    for (const card of this.#cards.values()) card.stopped();
    this.#insert(h('p', { class: 'error', attrs: { role: 'alert' } }, h('strong', { text: e?.name ?? 'Error' }), `: ${e?.message ?? String(error)}`));
    this.settle('error');
  }

  /** Stop showing it as live: render what is pending, drop the typing dots and empty segments. */
  settle(state: 'done' | 'stopped' | 'error' | 'stored' = 'stored'): void {
    for (const segment of this.#segments.values()) {
      segment.flush();
      if (!segment.element.hasChildNodes()) segment.element.remove();
    }
    this.#typing.remove();
    if (this.element.dataset.state === 'streaming' || state !== 'stored') this.element.dataset.state = state;
    this.element.removeAttribute('aria-busy');
    this.changed();
  }

  #segment(key: string): Segment {
    let segment = this.#segments.get(key);
    if (!segment) {
      segment = new Segment(this.changed);
      this.#segments.set(key, segment);
      this.#insert(segment.element);
    }
    return segment;
  }

  #insert(node: Node): void {
    // Keep the typing dots last, while there are any.
    if (this.#typing.parentNode === this.#body) this.#body.insertBefore(node, this.#typing);
    else this.#body.append(node);
    this.changed();
  }
}

function reasoningBlock(text: string): HTMLElement {
  return h('details', { class: 'reasoning' }, h('summary', { text: 'Reasoning' }), h('p', { text }));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
