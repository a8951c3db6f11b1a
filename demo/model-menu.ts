// The model picker's behaviour: what it lists (asked of the browser each time
// it opens, then the sizes of models not downloaded, fetched quietly), what a
// pick does (a load), and deleting a downloaded model.
import { deleteCachedModel } from '../src/index.js';
import { webllmOptions, withSizes, type WebLLMOption } from './model-catalog.js';
import type { ModelLoader } from './model-loader.js';
import { FAKE_CHOICES, type ModelChoice } from './models.js';
import type { ConfirmDialog } from './ui/dialog.js';
import { h } from './ui/dom.js';
import { formatBytes } from './ui/format.js';
import { ModelPicker, type PickerState } from './ui/model-picker.js';
import type { Toasts } from './ui/toast.js';

export class ModelMenu {
  readonly #picker: ModelPicker;
  #state: PickerState = { webllm: null, fakes: FAKE_CHOICES, current: null, loading: false, sizing: false };
  /** Stops fetching sizes once the picker closes. */
  #sizing: AbortController | null = null;

  constructor(
    element: HTMLDialogElement,
    private readonly loader: ModelLoader,
    private readonly dialog: ConfirmDialog,
    private readonly toasts: Toasts,
    /** Why no real model runs here, if none can. */
    private readonly noGpu: () => string | undefined,
  ) {
    this.#picker = new ModelPicker(element, { pick: (choice) => this.#pick(choice), remove: (option) => void this.#remove(option) });
    this.#picker.onClose(() => this.#sizing?.abort());
  }

  async open(): Promise<void> {
    this.#state = { ...this.#state, webllm: null, noGpu: this.noGpu(), ...this.#now() };
    this.#picker.render(this.#state);
    this.#picker.open();
    // Reading the cache or asking the GPU can fail (a private window without Cache Storage): list none, say nothing more.
    const options = await webllmOptions().catch((): WebLLMOption[] => []);
    this.#show({ webllm: options, sizing: true });
    this.#sizing?.abort();
    const sizing = (this.#sizing = new AbortController());
    // Sizes come from each model's manifest on the network: offline, or
    // blocked, they stay unknown, and nothing else is lost.
    const sized = await withSizes(options, sizing.signal).catch(() => options);
    if (!sizing.signal.aborted) this.#show({ webllm: sized, sizing: false });
  }

  /** The loader's state changed: a row says "Loading", "In use". */
  refresh(): void {
    if (this.#picker.isOpen) this.#show({});
  }

  #show(changes: Partial<PickerState>): void {
    this.#state = { ...this.#state, ...changes, ...this.#now() };
    this.#picker.render(this.#state);
  }

  #now(): Pick<PickerState, 'current' | 'loading'> {
    return { current: this.loader.current?.key ?? null, loading: this.loader.loading };
  }

  #pick(choice: ModelChoice): void {
    this.#picker.close();
    void this.loader.load(choice);
  }

  async #remove({ choice, listing }: WebLLMOption): Promise<void> {
    const inUse = this.loader.current?.key === choice.key;
    const size = listing.downloadBytes ? ` (${formatBytes(listing.downloadBytes)})` : '';
    const sure = await this.dialog.ask({
      title: `Delete ${choice.label}?`,
      body: [
        h('p', { text: `Its download${size} is deleted from this browser. Choosing it again downloads it again.` }),
        inUse ? h('p', { class: 'dialog-hint', text: 'It keeps running in this tab until you choose another model or reload.' }) : null,
      ].filter((n) => n !== null),
      confirm: 'Delete',
      cancel: 'Keep it',
      danger: true,
    });
    if (!sure) return;
    try {
      await deleteCachedModel(listing.id);
      this.toasts.show(`Deleted the downloaded ${choice.label}.`);
    } catch (error) {
      this.toasts.show(`Could not delete ${choice.label}: ${(error as Error).message}`, 'error');
    }
    if (!this.#picker.isOpen) return;
    // Listed again for the "Downloaded" marks; the sizes fetched before still hold.
    const known = new Map(this.#state.webllm?.map((o) => [o.listing.id, o.listing.downloadBytes]));
    const fresh = await webllmOptions().catch((): WebLLMOption[] => []);
    this.#show({ webllm: fresh.map((o) => ({ ...o, listing: { ...o.listing, downloadBytes: o.listing.downloadBytes ?? known.get(o.listing.id) } })) });
  }
}
