// The model load as a panel: a bar, bytes fetched of the total, speed and
// time left (all from tabagent's progress reports), what phase it is in,
// and a button that cancels it.
import type { LoadProgress } from '../../src/index.js';
import { h } from './dom.js';
import { formatBytes, formatDuration, formatSpeed } from './format.js';

/** What each phase is, on the GPU (WebLLM) and on the CPU (wllama, which compiles nothing and has no GPU to fill). */
const PHASES: Record<'gpu' | 'cpu', Record<LoadProgress['phase'], string>> = {
  gpu: { download: 'Fetching the weights', compile: 'Compiling the model for your GPU', load: 'Moving the weights onto the GPU' },
  cpu: { download: 'Fetching the weights', compile: 'Preparing the model', load: 'Loading the model into memory' },
};

/** Where the weights come from: the network, this browser's storage, or a file the person picked. */
export type WeightsFrom = 'download' | 'cache' | 'file';

const FROM: Record<WeightsFrom, { verb: string; first: string }> = {
  download: { verb: 'Downloading', first: 'Starting…' },
  cache: { verb: 'Loading', first: 'From this browser’s storage: nothing to download.' },
  file: { verb: 'Loading', first: 'From your disk: nothing to download.' },
};
/** Past the weights' phase nothing downloads, wherever they came from. */
const AFTER_DOWNLOAD = 'Loading';

export class LoadIndicator {
  readonly #title = h('p', { class: 'load-title' });
  readonly #bar = h('progress', { attrs: { max: '1', value: '0' } });
  readonly #numbers = h('p', { class: 'load-numbers' });
  readonly #detail = h('p', { class: 'load-detail' });
  #phases = PHASES.gpu;
  #label = '';
  #from: WeightsFrom = 'download';
  readonly #cancel = h('button', { class: 'button small', text: 'Cancel', attrs: { type: 'button', 'aria-label': 'Cancel the download' } });

  constructor(
    private readonly element: HTMLElement,
    cancel: () => void,
  ) {
    this.#cancel.addEventListener('click', cancel);
    element.replaceChildren(h('div', { class: 'load-head' }, this.#title, this.#cancel), this.#bar, this.#numbers, this.#detail);
  }

  start(label: string, from: WeightsFrom, on: 'gpu' | 'cpu'): void {
    this.#phases = PHASES[on];
    this.#label = label;
    this.#from = from;
    this.#setTitle(FROM[from].verb);
    this.#bar.value = 0;
    this.#numbers.textContent = FROM[from].first;
    this.#detail.textContent = '';
    this.element.hidden = false;
  }

  update({ phase, progress, loaded, total, bytesPerSecond, text }: LoadProgress): void {
    // The title says what happens now: "Downloading" only while the weights come.
    this.#setTitle(phase === 'download' ? FROM[this.#from].verb : AFTER_DOWNLOAD);
    const known = phase === 'download' && loaded !== undefined && total !== undefined && total > 0;
    const fraction = Math.min(1, Math.max(0, known ? loaded / total : progress));
    // The last step at 100 % is still running, unmeasured (wllama's load into memory says nothing until done): no figure to show.
    if (phase !== 'download' && fraction >= 1) {
      this.#bar.removeAttribute('value');
      this.#numbers.textContent = this.#phases[phase];
      this.#detail.textContent = text === this.#phases[phase] ? '' : text;
      return;
    }
    this.#bar.value = fraction;
    const parts = [`${Math.round(fraction * 100)} %`];
    if (known) {
      parts.push(`${formatBytes(loaded)} of ${formatBytes(total)}`);
      if (bytesPerSecond && loaded < total) parts.push(formatSpeed(bytesPerSecond), `about ${formatDuration(((total - loaded) / bytesPerSecond) * 1000)} left`);
    }
    this.#numbers.textContent = `${this.#phases[phase]}: ${parts.join(' · ')}`;
    // The engine's own words (which shard, which cache), which the numbers cannot say; not when they only repeat the phase.
    this.#detail.textContent = text === this.#phases[phase] ? '' : text;
  }

  done(): void {
    this.element.hidden = true;
  }

  #setTitle(verb: string): void {
    const title = `${verb} ${this.#label}`;
    if (this.#title.textContent === title) return;
    this.#title.textContent = title;
    this.#bar.setAttribute('aria-label', title);
    this.#cancel.setAttribute('aria-label', verb === 'Downloading' ? 'Cancel the download' : 'Cancel loading the model');
  }
}
