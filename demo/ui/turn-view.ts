// One assistant turn: text segments (one per model call, rendered as Markdown
// as they grow), tool cards between them, and a footer with the turn's stats,
// a copy button and, on the last answer, "Regenerate".
import type { ChatMessage, Tool, ToolCall } from '../../src/index.js';
import { copyButton } from './copy-button.js';
import { append, h } from './dom.js';
import { icon } from './icons.js';
import { renderMarkdown } from './markdown.js';
import { ToolCard, type ToolKind } from './tool-card.js';
import { turnStats } from './turn-stats.js';

type TurnState = 'streaming' | 'done' | 'stopped' | 'error';
type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/** One text segment: the text of one model call, re-rendered as Markdown as it grows. */
class Segment {
  readonly element = h('div', { class: 'text' });
  text = '';
  #frame = 0;

  constructor(private readonly changed: () => void) {}

  append(delta: string): void {
    this.text += delta;
    // Many deltas can land in one frame; render once per frame.
    this.#frame ||= requestAnimationFrame(() => this.flush());
  }

  flush(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.element.replaceChildren(renderMarkdown(this.text));
    this.changed();
  }
}

export class TurnView {
  readonly element: HTMLElement;
  readonly #body: HTMLElement;
  readonly #typing = h('div', { class: 'typing', attrs: { 'aria-hidden': 'true' } }, h('span'), h('span'), h('span'));
  readonly #waiting = h('p', { class: 'turn-waiting', attrs: { role: 'status', hidden: '' } });
  readonly #footer = h('footer', { class: 'turn-meta' });
  readonly #segments = new Map<string, Segment>();
  readonly #cards = new Map<string, ToolCard>();

  constructor(
    private readonly toolOf: (name: string) => Tool | undefined,
    private readonly changed: () => void,
  ) {
    this.#body = h('div', { class: 'turn-body' }, this.#waiting, this.#typing);
    this.element = h('article', { class: 'message assistant turn', attrs: { 'aria-label': 'Assistant reply' } }, this.#body, this.#footer);
    this.#setState('streaming');
  }

  /** A model call starts: its text goes in a new segment (`key`), after everything shown so far. */
  beginHop(key: string): void {
    this.waiting(null);
    this.#segment(key);
  }

  appendText(key: string, delta: string): void {
    this.#segment(key).append(delta);
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

  /** Say why nothing happens yet (another tab's reply, a model still loading); null once something does. */
  waiting(text: string | null): void {
    this.#waiting.textContent = text ?? '';
    this.#waiting.hidden = text === null;
  }

  /** A stored assistant message. */
  storedMessage(message: AssistantMessage): void {
    if (message.reasoning) this.#insert(h('details', { class: 'reasoning' }, h('summary', { text: 'Reasoning' }), h('p', { text: message.reasoning })));
    const segment = this.#segment(`stored:${this.#segments.size}`);
    segment.append(message.text);
    segment.flush();
    this.addCalls(message.toolCalls);
  }

  /** The whole answer's Markdown, as the model wrote it: what "Copy" copies. */
  text(): string {
    return [...this.#segments.values()]
      .map((s) => s.text.trim())
      .filter(Boolean)
      .join('\n\n');
  }

  /** A stored turn is drawn: its state, stats and actions come from its messages. */
  finishStored(messages: readonly ChatMessage[], actions: { regenerate?: () => void }): void {
    const last = messages.findLast((m): m is AssistantMessage => m.role === 'assistant');
    const note =
      last?.finishReason === 'abort'
        ? [h('span', { class: 'tag', text: 'Stopped' }), ' The reply was stopped; what it said so far is kept.']
        : last?.finishReason === 'error'
          ? [h('span', { class: 'tag', text: 'Failed' }), ' The model failed mid-reply; what it said so far is kept.']
          : last?.finishReason === 'length'
            ? // tabagent stops a reply of nothing but whitespace as it stops one at the token limit: say which it was.
              [h('span', { class: 'tag', text: 'Cut off' }), last.text.trim() || last.reasoning.trim() || last.toolCalls.length ? ' The answer reached the token limit.' : ' The model wrote only blank space, so it was stopped.']
            : [];
    const cutShort = last?.finishReason === 'abort' || last?.finishReason === 'error';
    if (cutShort) for (const card of this.#cards.values()) card.stopped();
    const buttons: HTMLElement[] = [];
    if (this.text()) buttons.push(copyButton('Copy the answer', () => this.text()));
    if (actions.regenerate) {
      const regenerate = h('button', { class: 'turn-action regenerate', attrs: { type: 'button', 'aria-label': 'Regenerate the answer', title: 'Ask the model for another answer' } }, icon('retry'), h('span', { text: 'Regenerate' }));
      regenerate.addEventListener('click', actions.regenerate);
      buttons.push(regenerate);
    }
    this.#footer.replaceChildren();
    append(
      this.#footer,
      h('span', { class: 'turn-stats' }, ...note, note.length ? ' ' : '', turnStats(messages)),
      buttons.length ? h('span', { class: 'turn-actions' }, ...buttons) : null,
    );
    this.settle(cutShort ? 'stopped' : 'done');
  }

  /** Open again for a run that continues this turn (a regenerated answer). */
  resume(): void {
    this.#footer.replaceChildren();
    this.#body.append(this.#waiting, this.#typing);
    this.#setState('streaming');
  }

  /** The run failed: what it did so far stays, with the error after it. */
  fail(message: string): void {
    for (const card of this.#cards.values()) card.stopped();
    this.#insert(h('p', { class: 'error', text: message, attrs: { role: 'alert' } }));
    this.settle('error');
  }

  /** Stop showing it as live: render what is pending, drop the typing dots and empty segments. */
  settle(state: Exclude<TurnState, 'streaming'>): void {
    for (const segment of this.#segments.values()) {
      segment.flush();
      if (!segment.element.hasChildNodes()) segment.element.remove();
    }
    this.#typing.remove();
    this.waiting(null);
    this.#setState(state);
    this.changed();
  }

  #setState(state: TurnState): void {
    this.element.dataset.state = state;
    if (state === 'streaming') this.element.setAttribute('aria-busy', 'true');
    else this.element.removeAttribute('aria-busy');
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
    // Keep the waiting line and the typing dots last, while there are any.
    const anchor = this.#waiting.parentNode === this.#body ? this.#waiting : this.#typing.parentNode === this.#body ? this.#typing : null;
    this.#body.insertBefore(node, anchor);
    this.changed();
  }
}
