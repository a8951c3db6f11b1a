// The notice under the top bar: why the page is not running the model you
// might expect, with what to do about it (a Retry button, a folded "more").
// It stays until dismissed, or until it no longer applies.
import { h } from './dom.js';
import { icon } from './icons.js';

export interface BannerContent {
  text: string;
  /** Folded details: one line on a phone, the rest on request. */
  more?: { summary: string; text: string };
  action?: { label: string; run: () => void };
}

export class Banner {
  readonly #text = h('p', { class: 'banner-text' });
  readonly #more = h('details', { class: 'banner-more' });
  readonly #action = h('button', { class: 'button small', attrs: { type: 'button' } });
  #run: (() => void) | null = null;

  constructor(private readonly element: HTMLElement) {
    const close = h('button', { class: 'icon-button banner-close', attrs: { type: 'button', 'aria-label': 'Dismiss this notice' } }, icon('close'));
    close.addEventListener('click', () => this.hide());
    this.#action.addEventListener('click', () => this.#run?.());
    element.replaceChildren(h('div', { class: 'banner-body' }, this.#text, this.#more), this.#action, close);
  }

  show({ text, more, action }: BannerContent): void {
    this.#text.textContent = text;
    this.#more.hidden = !more;
    this.#more.open = false;
    this.#more.replaceChildren(...(more ? [h('summary', { text: more.summary }), h('p', { text: more.text })] : []));
    this.#action.hidden = !action;
    this.#action.textContent = action?.label ?? '';
    this.#run = action?.run ?? null;
    this.element.hidden = false;
  }

  hide(): void {
    this.element.hidden = true;
  }
}
