// The model picker: a dialog listing the WebLLM models this demo offers, with
// what each costs (download, GPU memory) and gives (context window), which
// are downloaded already (and a way to delete them), and the scripted fakes.
// It only draws and reports clicks; model-menu.ts decides what they do.
import type { WebLLMOption } from '../model-catalog.js';
import type { FakeChoice, ModelChoice } from '../models.js';
import { append, h } from './dom.js';
import { formatBytes } from './format.js';
import { icon } from './icons.js';

export interface PickerActions {
  pick(choice: ModelChoice): void;
  remove(option: WebLLMOption): void;
}

export interface PickerState {
  /** null while the browser is still being asked. */
  webllm: readonly WebLLMOption[] | null;
  fakes: readonly FakeChoice[];
  /** The choice running or loading now. */
  current: string | null;
  loading: boolean;
  /** Sizes of models not downloaded are being fetched. */
  sizing: boolean;
  /** Why no real model runs here, if none does. */
  noGpu?: string;
}

export class ModelPicker {
  readonly #list = h('div', { class: 'models-body' });

  constructor(
    private readonly dialog: HTMLDialogElement,
    private readonly actions: PickerActions,
  ) {
    const close = h('button', { class: 'icon-button', attrs: { type: 'button', 'aria-label': 'Close' } }, icon('close'));
    close.addEventListener('click', () => dialog.close());
    dialog.setAttribute('aria-labelledby', 'models-title');
    dialog.replaceChildren(
      h('header', { class: 'models-head' }, h('h2', { class: 'dialog-title', text: 'Choose a model', attrs: { id: 'models-title' } }), close),
      h('p', { class: 'models-intro', text: 'Models run on your GPU with WebLLM. Each downloads once, then loads from this browser’s storage. Nothing downloads until you choose.' }),
      this.#list,
    );
    // A click on the backdrop (outside the dialog's box) closes it, as on most sites.
    dialog.addEventListener('click', (event) => {
      if (event.target === dialog) dialog.close();
    });
  }

  get isOpen(): boolean {
    return this.dialog.open;
  }

  open(): void {
    if (!this.dialog.open) this.dialog.showModal();
  }

  close(): void {
    this.dialog.close();
  }

  onClose(listener: () => void): void {
    this.dialog.addEventListener('close', listener);
  }

  render(state: PickerState): void {
    const real = state.webllm === null ? [h('p', { class: 'models-checking', text: 'Checking what this browser can run…' })] : state.webllm.map((o) => this.#webllmRow(o, state));
    const gpuGroup = [
      h('h3', { class: 'models-group', text: 'On your GPU' }),
      state.noGpu ? h('p', { class: 'models-note', text: state.noGpu }) : null,
      h('ul', { class: 'model-list', attrs: { 'aria-label': 'Models that run on your GPU' } }, ...real),
    ];
    const scripted = [
      h('h3', { class: 'models-group', text: 'No GPU needed' }),
      h('ul', { class: 'model-list', attrs: { 'aria-label': 'Scripted models' } }, ...state.fakes.map((c) => this.#fakeRow(c, state))),
    ];
    this.#list.replaceChildren();
    // Without WebGPU, what can run here comes first.
    append(this.#list, ...(state.noGpu ? [...scripted, ...gpuGroup] : [...gpuGroup, ...scripted]));
  }

  #webllmRow(option: WebLLMOption, state: PickerState): HTMLLIElement {
    const { choice, listing } = option;
    const current = state.current === choice.key;
    // Sizes are fetched only for models that can run here.
    const size = listing.downloadBytes !== undefined ? `${formatBytes(listing.downloadBytes)} download` : listing.runnable === false ? '' : state.sizing ? 'size…' : 'size unknown';
    const facts = [size, listing.vramMB ? `${formatBytes(listing.vramMB * 1e6)} GPU memory` : '', `${Math.round(listing.contextWindow / 1024)}K-token context`].filter(Boolean).join(' · ');
    const why = listing.runnable === false ? (listing.needsShaderF16 && !state.noGpu ? 'This GPU lacks shader-f16, which this model needs.' : 'Needs WebGPU.') : '';
    const buttons: HTMLElement[] = [];
    if (listing.cached) {
      const remove = h('button', { class: 'button small quiet', text: 'Delete', attrs: { type: 'button', 'aria-label': `Delete the downloaded ${choice.label}`, title: 'Free the space it takes in this browser' } });
      remove.addEventListener('click', () => this.actions.remove(option));
      buttons.push(remove);
    }
    buttons.push(this.#useButton(choice, current, state.loading, listing.runnable === false, listing.cached ? 'Use' : 'Download'));
    return h(
      'li',
      { class: 'model-row', dataset: { modelId: listing.id, cached: String(listing.cached), current: String(current) } },
      h(
        'div',
        { class: 'model-info' },
        h('span', { class: 'model-label' }, choice.label, listing.cached ? h('span', { class: 'badge ok', text: 'Downloaded' }) : null),
        h('span', { class: 'model-facts', text: facts }),
        choice.note || why ? h('span', { class: why ? 'model-note warn' : 'model-note', text: why || choice.note! }) : null,
      ),
      h('div', { class: 'model-actions' }, ...buttons),
    );
  }

  #fakeRow(choice: FakeChoice, state: PickerState): HTMLLIElement {
    const current = state.current === choice.key;
    return h(
      'li',
      { class: 'model-row', dataset: { current: String(current) } },
      h(
        'div',
        { class: 'model-info' },
        h('span', { class: 'model-label', text: choice.label }),
        h('span', { class: 'model-note', text: choice.note }),
      ),
      h('div', { class: 'model-actions' }, this.#useButton(choice, current, state.loading, false, 'Use')),
    );
  }

  #useButton(choice: ModelChoice, current: boolean, loading: boolean, cannot: boolean, verb: 'Use' | 'Download'): HTMLButtonElement {
    const text = cannot ? 'Can’t run here' : current ? (loading ? 'Loading…' : 'In use') : verb;
    const button = h('button', { class: `button small${current || cannot ? '' : ' primary'}`, text, attrs: { type: 'button', 'aria-label': `${verb} ${choice.label}` } });
    button.disabled = cannot || current;
    button.addEventListener('click', () => this.actions.pick(choice));
    return button;
  }
}
