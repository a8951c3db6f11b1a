// The model picker's behaviour: what it lists (asked of the browser each time
// it opens, then what takes the network or a worker: the sizes of GPU models
// not downloaded, of CPU models the curated list has none for, and of the
// person's own GGUF URL, fetched quietly), what a
// pick does (a load), opening a .gguf from the disk, and deleting a
// downloaded model.
import { deleteCachedModel } from '../src/index.js';
import { cpuOptions, withFetchedFacts, type CpuOption } from './cpu-catalog.js';
import { webllmOptions, withSizes, type WebLLMOption } from './model-catalog.js';
import type { ModelLoader } from './model-loader.js';
import { FAKE_CHOICES, ownFileChoice, type ModelChoice } from './models.js';
import type { OwnGgufs } from './own-gguf.js';
import type { ConfirmDialog } from './ui/dialog.js';
import { h } from './ui/dom.js';
import { formatBytes } from './ui/format.js';
import { ModelPicker, type PickerState } from './ui/model-picker.js';
import type { Toasts } from './ui/toast.js';

export class ModelMenu {
  readonly #picker: ModelPicker;
  #state: PickerState = { webllm: null, cpu: null, fakes: FAKE_CHOICES, current: null, loading: false, sizing: false };
  /** Stops fetching sizes once the picker closes. */
  #sizing: AbortController | null = null;

  constructor(
    element: HTMLDialogElement,
    private readonly loader: ModelLoader,
    private readonly own: OwnGgufs,
    private readonly dialog: ConfirmDialog,
    private readonly toasts: Toasts,
    /** Why the GPU models cannot run here, if they cannot. */
    private readonly noGpu: () => string | undefined,
  ) {
    this.#picker = new ModelPicker(element, {
      pick: (choice) => this.#pick(choice),
      remove: (option) => void this.#remove(option),
      openFile: (file) => this.#openFile(file),
    });
    this.#picker.onClose(() => this.#sizing?.abort());
  }

  async open(): Promise<void> {
    this.#state = { ...this.#state, webllm: null, cpu: null, noGpu: this.noGpu(), ...this.#now() };
    this.#picker.render(this.#state);
    this.#picker.open();
    // Reading the cache or asking the GPU can fail (a private window without Cache Storage): list none, say nothing more.
    const [webllm, cpu] = await Promise.all([webllmOptions().catch((): WebLLMOption[] => []), this.#cpuOptions()]);
    this.#show({ webllm, cpu, sizing: true });
    this.#sizing?.abort();
    const sizing = (this.#sizing = new AbortController());
    // Sizes come from the network: offline, or blocked, they stay unknown,
    // and nothing else is lost.
    const [sized, cpuSized] = await Promise.all([withSizes(webllm, sizing.signal).catch(() => webllm), withFetchedFacts(cpu)]);
    if (!sizing.signal.aborted) this.#show({ webllm: sized, cpu: cpuSized, sizing: false });
  }

  /** The loader's state changed: a row says "Loading", "In use". */
  refresh(): void {
    if (this.#picker.isOpen) this.#show({});
  }

  #cpuOptions(): Promise<CpuOption[]> {
    return cpuOptions(this.own.choices).catch((): CpuOption[] => []);
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

  /** A file is a pick of its own: listed from now on (to show it in use), and loaded. */
  #openFile(file: File): void {
    const choice = ownFileChoice(file);
    this.own.add(choice);
    this.#pick(choice);
  }

  async #remove(option: WebLLMOption | CpuOption): Promise<void> {
    const { choice } = option;
    const bytes = 'listing' in option ? option.listing.downloadBytes : option.facts.bytes;
    const inUse = this.loader.current?.key === choice.key;
    const size = bytes ? ` (${formatBytes(bytes)})` : '';
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
      // A GPU model by its build's id; a CPU model by its curated id or { gguf: url } (a picked file is never in the cache, so has no Delete).
      await deleteCachedModel('listing' in option ? option.listing.id : option.choice.model);
      this.toasts.show(`Deleted the downloaded ${choice.label}.`);
    } catch (error) {
      this.toasts.show(`Could not delete ${choice.label}: ${(error as Error).message}`, 'error');
    }
    if (!this.#picker.isOpen) return;
    // Listed again for the "Downloaded" marks; the sizes fetched before still hold.
    const known = new Map(this.#state.webllm?.map((o) => [o.listing.id, o.listing.downloadBytes]));
    const [fresh, cpu] = await Promise.all([webllmOptions().catch((): WebLLMOption[] => []), this.#cpuOptions().then(withFetchedFacts)]);
    this.#show({ webllm: fresh.map((o) => ({ ...o, listing: { ...o.listing, downloadBytes: o.listing.downloadBytes ?? known.get(o.listing.id) } })), cpu });
  }
}
