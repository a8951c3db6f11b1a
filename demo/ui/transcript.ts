// The conversation on screen: user bubbles, and assistant turns made of text
// segments (one per model call) and tool cards, in the order they happened.
// A turn is drawn live while it runs, then again from the store, so what
// shows after a run is what a reload shows.
import type { ChatMessage, Tool } from '../../src/index.js';
import { h } from './dom.js';
import { TurnView } from './turn-view.js';

/** How close to the bottom (px) still counts as "reading the latest": new text then keeps it in view. */
const FOLLOW_SLACK_PX = 80;

export interface HistoryOptions {
  /** Scroll to the end even if the reader had scrolled up (a chat just opened). */
  toEnd?: boolean;
  /** Leave the last turn open, and return it, for a run that goes on in it (regenerate). */
  resume?: boolean;
  /** Offered on the last turn when it ends with an answer. */
  regenerate?: () => void;
}

export interface EmptyState {
  title: string;
  note: string;
  suggestions?: readonly string[];
  pick?: (text: string) => void;
  action?: { label: string; run: () => void };
}

export class Transcript {
  #follow = true;
  #actionsEnabled = true;

  constructor(readonly element: HTMLElement) {
    element.addEventListener('scroll', () => {
      this.#follow = element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_SLACK_PX;
    });
  }

  clear(): void {
    this.element.replaceChildren();
  }

  /** The empty chat: what this page can do, as buttons that ask it (or the one thing to do first). */
  empty({ title, note, suggestions = [], pick, action }: EmptyState): void {
    this.clear();
    this.#follow = true;
    const buttons = h('div', { class: 'suggestions' });
    for (const text of suggestions) {
      const button = h('button', { class: 'suggestion', text, attrs: { type: 'button' } });
      button.addEventListener('click', () => pick?.(text));
      buttons.append(button);
    }
    if (action) {
      const button = h('button', { class: 'button primary', text: action.label, attrs: { type: 'button' } });
      button.addEventListener('click', action.run);
      buttons.append(button);
    }
    this.element.append(h('section', { class: 'empty' }, h('h2', { text: title }), h('p', { text: note }), buttons));
  }

  user(text: string): HTMLElement {
    this.element.querySelector('.empty')?.remove();
    // Plain text: what the user typed is shown exactly as typed.
    const bubble = h('div', { class: 'message user' }, h('p', { class: 'bubble', text }));
    this.element.append(bubble);
    this.scrollToEnd(true);
    return bubble;
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

  /** Put back nodes a redraw took away (a reply still running), after everything else. */
  adopt(nodes: readonly Node[]): void {
    this.element.append(...nodes);
    this.scrollToEnd();
  }

  /** A stored conversation, drawn the way it looked live. */
  history(messages: readonly ChatMessage[], toolOf: (name: string) => Tool | undefined, options: HistoryOptions = {}): TurnView | null {
    const follow = options.toEnd || this.#follow;
    const top = this.element.scrollTop;
    this.clear();
    let turn: TurnView | null = null;
    let group: ChatMessage[] = [];
    const close = (isLast: boolean) => {
      turn?.finishStored(group, isLast && options.regenerate ? { regenerate: options.regenerate } : {});
      turn = null;
      group = [];
    };
    for (const message of messages) {
      if (message.role === 'user') {
        close(false);
        this.user(message.content);
        continue;
      }
      turn ??= this.turn(toolOf);
      group.push(message);
      if (message.role === 'assistant') turn.storedMessage(message);
      else for (const result of message.results) turn.card(result.callId)?.finished(result.content, result.isError, result.durationMs, result.attempts);
    }
    let open: TurnView | null = null;
    if (options.resume && turn) {
      open = turn;
      open.resume();
    } else {
      close(messages.at(-1)?.role === 'assistant');
    }
    this.setActionsEnabled(this.#actionsEnabled);
    if (follow) this.scrollToEnd(true);
    else this.element.scrollTop = top;
    return open;
  }

  /** Actions that run the model (regenerate) work only while a model can answer. */
  setActionsEnabled(enabled: boolean): void {
    this.#actionsEnabled = enabled;
    for (const button of this.element.querySelectorAll<HTMLButtonElement>('.regenerate')) button.disabled = !enabled;
  }

  scrollToEnd(force = false): void {
    if (force) this.#follow = true;
    if (this.#follow) this.element.scrollTop = this.element.scrollHeight;
  }
}
