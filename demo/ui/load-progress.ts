// The model load as a panel: a bar, bytes fetched of the total, speed and
// time left (all from tabagent's progress reports), what phase it is in,
// and a button that cancels it.
import type { LoadProgress } from '../../src/index.js';
import { h } from './dom.js';
import { formatBytes, formatDuration, formatSpeed } from './format.js';

const PHASES: Record<LoadProgress['phase'], string> = {
  download: 'Fetching the weights',
  compile: 'Compiling the model for your GPU',
  load: 'Moving the weights onto the GPU',
};

export class LoadIndicator {
  readonly #title = h('p', { class: 'load-title' });
  readonly #bar = h('progress', { attrs: { max: '1', value: '0' } });
  readonly #numbers = h('p', { class: 'load-numbers' });
  readonly #detail = h('p', { class: 'load-detail' });
  readonly #cancel = h('button', { class: 'button small', text: 'Cancel', attrs: { type: 'button', 'aria-label': 'Cancel the download' } });

  constructor(
    private readonly element: HTMLElement,
    cancel: () => void,
  ) {
    this.#cancel.addEventListener('click', cancel);
    element.replaceChildren(h('div', { class: 'load-head' }, this.#title, this.#cancel), this.#bar, this.#numbers, this.#detail);
  }

  /** `fromCache`: the model is downloaded already, so this is only a load. */
  start(label: string, fromCache: boolean): void {
    this.#title.textContent = fromCache ? `Loading ${label}` : `Downloading ${label}`;
    this.#bar.value = 0;
    this.#bar.setAttribute('aria-label', this.#title.textContent);
    this.#numbers.textContent = fromCache ? 'From this browser’s storage: nothing to download.' : 'Starting…';
    this.#detail.textContent = '';
    this.element.hidden = false;
  }

  update({ phase, progress, loaded, total, bytesPerSecond, text }: LoadProgress): void {
    const known = phase === 'download' && loaded !== undefined && total !== undefined && total > 0;
    const fraction = Math.min(1, Math.max(0, known ? loaded / total : progress));
    this.#bar.value = fraction;
    const parts = [`${Math.round(fraction * 100)} %`];
    if (known) {
      parts.push(`${formatBytes(loaded)} of ${formatBytes(total)}`);
      if (bytesPerSecond && loaded < total) parts.push(formatSpeed(bytesPerSecond), `about ${formatDuration(((total - loaded) / bytesPerSecond) * 1000)} left`);
    }
    this.#numbers.textContent = `${PHASES[phase]}: ${parts.join(' · ')}`;
    // The engine's own words (which shard, which cache), which the numbers cannot say.
    this.#detail.textContent = text;
  }

  done(): void {
    this.element.hidden = true;
  }
}
