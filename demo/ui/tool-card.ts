// One tool call, as a card: what the model asked for, what is happening to
// it, and what came back. Everything shown is text (arguments and results
// come from the model and from tools, so they are never markup).
import type { ToolCall, ToolTraits } from '../../src/index.js';
import { h } from './dom.js';
import { formatDuration } from './format.js';

export type ToolKind = 'managed' | 'raw' | 'unknown';
export type CardState = 'queued' | 'approval' | 'running' | 'done' | 'error' | 'denied' | 'stopped' | 'waiting';

const STATUS: Record<CardState, string> = {
  queued: 'queued',
  approval: 'waiting for your approval',
  running: 'running',
  done: 'done',
  error: 'failed',
  denied: 'denied',
  stopped: 'stopped',
  waiting: 'waiting for the page',
};

/** A result as the model reads it, sorted into what a person wants to know. */
type Outcome = { kind: 'ok'; text: string } | { kind: 'error'; text: string } | { kind: 'denied'; text: string };

export class ToolCard {
  readonly element: HTMLElement;
  readonly #status: HTMLElement;
  readonly #duration: HTMLElement;
  readonly #progress: HTMLElement;
  readonly #result: HTMLElement;
  readonly #resultLabel: HTMLElement;

  constructor(call: ToolCall, kind: ToolKind, traits: ToolTraits = {}) {
    this.#status = h('span', { class: 'tool-status' });
    this.#duration = h('span', { class: 'tool-duration' });
    this.#progress = h('p', { class: 'tool-progress', attrs: { hidden: '' } });
    this.#resultLabel = h('span', { class: 'tool-label', text: 'Result' });
    this.#result = h('pre', { class: 'tool-result' });
    const by = kind === 'raw' ? 'answered by the page' : kind === 'unknown' ? 'not a tool of this chat' : 'run by the agent';
    this.element = h(
      'article',
      { class: 'tool-card', dataset: { tool: call.name, callId: call.id, kind }, attrs: { 'aria-label': `Tool call ${call.name}` } },
      h(
        'header',
        { class: 'tool-head' },
        h('span', { class: 'tool-icon', attrs: { 'aria-hidden': 'true' } }),
        h('code', { class: 'tool-name', text: call.name }),
        traits.destructive ? h('span', { class: 'tool-badge danger', text: 'destructive' }) : null,
        traits.readOnly ? h('span', { class: 'tool-badge', text: 'read-only' }) : null,
        h('span', { class: 'tool-by', text: by }),
        this.#status,
        this.#duration,
      ),
      h('div', { class: 'tool-section' }, h('span', { class: 'tool-label', text: 'Arguments' }), h('pre', { class: 'tool-args', text: compactJson(call.arguments) })),
      this.#progress,
      h('div', { class: 'tool-section tool-outcome' }, this.#resultLabel, this.#result),
    );
    this.#set(kind === 'managed' && !call.error ? 'queued' : 'waiting');
  }

  get state(): CardState {
    return this.element.dataset.state as CardState;
  }

  awaitingApproval(): void {
    this.#set('approval');
  }

  running(): void {
    this.#set('running');
  }

  progress(details: unknown): void {
    const step = typeof details === 'object' && details !== null && typeof (details as { step?: unknown }).step === 'string' ? (details as { step: string }).step : JSON.stringify(details);
    this.#progress.textContent = step;
    this.#progress.hidden = false;
  }

  /** A managed call ended (`tool-end`), or a stored result is shown again (older chats stored no duration). */
  finished(content: string, isError: boolean, durationMs?: number, attempts = 1): void {
    // tool-end follows tool-denied: the denial is the more useful thing to show.
    if (this.state === 'denied') return;
    this.#progress.hidden = true;
    const outcome = outcomeOf(content, isError);
    this.#show(outcome);
    // A call that never ran (attempts 0) took no time worth showing.
    if (durationMs !== undefined && attempts > 0 && outcome.kind !== 'denied') {
      this.#duration.textContent = formatDuration(durationMs) + (attempts > 1 ? ` · ${attempts} tries` : '');
    }
  }

  denied(reason: string): void {
    this.#show({ kind: 'denied', text: reason });
  }

  /** The page answered a raw call. */
  answered(result: unknown): void {
    this.finished(JSON.stringify(result), false);
  }

  /** The run stopped before this call finished. */
  stopped(): void {
    if (['queued', 'approval', 'running', 'waiting'].includes(this.state)) {
      this.#progress.hidden = true;
      this.#set('stopped');
    }
  }

  #show(outcome: Outcome): void {
    this.#resultLabel.textContent = outcome.kind === 'denied' ? 'Denied' : outcome.kind === 'error' ? 'Error' : 'Result';
    this.#result.textContent = outcome.text;
    this.#set(outcome.kind === 'ok' ? 'done' : outcome.kind);
  }

  #set(state: CardState): void {
    this.element.dataset.state = state;
    this.#status.textContent = STATUS[state];
  }
}

function outcomeOf(content: string, isError: boolean): Outcome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return { kind: isError ? 'error' : 'ok', text: content };
  }
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  if (record.denied === true) return { kind: 'denied', text: String(record.reason ?? 'denied') };
  if (isError || (Object.keys(record).length === 1 && typeof record.error === 'string')) return { kind: 'error', text: String(record.error ?? content) };
  return { kind: 'ok', text: compactJson(parsed) };
}

/** Short JSON on one line (cards stay small), long JSON indented (so it can be read). */
function compactJson(value: unknown): string {
  const flat = JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
  return flat.length <= 100 ? flat : JSON.stringify(value, null, 2);
}
