// The model picker: a dialog listing the models this demo offers, in three
// groups: on the GPU (WebLLM), on the CPU (wllama, GGUF files, the person's
// own included), and the scripted fakes. Each row says what it costs
// (download, GPU memory) and gives (context window), whether it is
// downloaded (with a way to delete it), and whether it can run here. The
// groups that can run here come first. It only draws and reports clicks;
// model-menu.ts decides what they do.
import type { CpuOption } from '../cpu-catalog.js';
import type { WebLLMOption } from '../model-catalog.js';
import type { FakeChoice, ModelChoice } from '../models.js';
import { cpuRow, ownFileRow } from './cpu-rows.js';
import { append, h } from './dom.js';
import { formatBytes } from './format.js';
import { icon } from './icons.js';
import { deleteButton, downloadedBadge, useButton } from './model-row.js';

export interface PickerActions {
  pick(choice: ModelChoice): void;
  remove(option: WebLLMOption | CpuOption): void;
  /** The person picked a .gguf file from their disk. */
  openFile(file: File): void;
}

export interface PickerState {
  /** null while the browser is still being asked. */
  webllm: readonly WebLLMOption[] | null;
  /** null while the browser is still being asked. */
  cpu: readonly CpuOption[] | null;
  fakes: readonly FakeChoice[];
  /** The choice running or loading now. */
  current: string | null;
  loading: boolean;
  /** Sizes of models not downloaded are being fetched. */
  sizing: boolean;
  /** Why the GPU models cannot run here, if they cannot. */
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
      h('p', {
        class: 'models-intro',
        text: 'GPU models run with WebLLM, CPU models with wllama (llama.cpp). Each downloads once, then loads from this browser’s storage. Nothing downloads until you choose.',
      }),
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
    const checking = () => h('p', { class: 'models-checking', text: 'Checking what this browser can run…' });
    const gpu = this.#group('On your GPU', 'Models that run on your GPU', state.noGpu, state.webllm === null ? [checking()] : state.webllm.map((o) => this.#webllmRow(o, state)));
    // Until the CPU listing is in, assume wllama runs (it does in current Chrome, Edge and Firefox).
    const cpuRuns = state.cpu?.every((o) => o.facts.runnable) ?? true;
    const cpuRows = state.cpu === null ? [checking()] : [...state.cpu.map((o) => cpuRow(o, state, this.actions)), ownFileRow(cpuRuns, this.actions)];
    const cpu = this.#group('Runs on the CPU (no GPU needed)', 'Models that run on the CPU', cpuNote(cpuRuns, state.noGpu !== undefined), cpuRows);
    const scripted = this.#group('Scripted (nothing to download)', 'Scripted models', undefined, state.fakes.map((c) => this.#fakeRow(c, state)));
    this.#list.replaceChildren();
    // What can run here comes first: the GPU's models where WebGPU is, else the CPU's, else the scripts.
    const order = !state.noGpu ? [gpu, cpu, scripted] : cpuRuns ? [cpu, scripted, gpu] : [scripted, cpu, gpu];
    append(this.#list, ...order.flat());
  }

  #group(title: string, label: string, note: string | undefined, rows: HTMLElement[]): HTMLElement[] {
    return [
      h('h3', { class: 'models-group', text: title }),
      ...(note ? [h('p', { class: 'models-note', text: note })] : []),
      h('ul', { class: 'model-list', attrs: { 'aria-label': label } }, ...rows),
    ];
  }

  #webllmRow(option: WebLLMOption, state: PickerState): HTMLLIElement {
    const { choice, listing } = option;
    const current = state.current === choice.key;
    // Sizes are fetched only for models that can run here.
    const size = listing.downloadBytes !== undefined ? `${formatBytes(listing.downloadBytes)} download` : listing.runnable === false ? '' : state.sizing ? 'size…' : 'size unknown';
    const facts = [size, listing.vramMB ? `${formatBytes(listing.vramMB * 1e6)} GPU memory` : '', `${Math.round(listing.contextWindow / 1024)}K-token context`].filter(Boolean).join(' · ');
    const why = listing.runnable === false ? (listing.needsShaderF16 && !state.noGpu ? 'This GPU lacks shader-f16, which this model needs.' : 'Needs WebGPU.') : '';
    const buttons: HTMLElement[] = [];
    if (listing.cached) buttons.push(deleteButton(choice.label, () => this.actions.remove(option)));
    buttons.push(useButton(choice, { current, loading: state.loading, cannot: listing.runnable === false, verb: listing.cached ? 'Use' : 'Download' }, this.actions));
    return h(
      'li',
      { class: 'model-row', dataset: { engine: 'webllm', modelId: listing.id, cached: String(listing.cached), current: String(current) } },
      h(
        'div',
        { class: 'model-info' },
        h('span', { class: 'model-label' }, choice.label, listing.cached ? downloadedBadge() : null),
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
      { class: 'model-row', dataset: { engine: 'fake', current: String(current) } },
      h(
        'div',
        { class: 'model-info' },
        h('span', { class: 'model-label', text: choice.label }),
        h('span', { class: 'model-note', text: choice.note }),
      ),
      h('div', { class: 'model-actions' }, useButton(choice, { current, loading: state.loading, cannot: false, verb: 'Use' }, this.actions)),
    );
  }
}

/** What the CPU group says first: why it is there, given what this browser has. */
function cpuNote(runs: boolean, noGpu: boolean): string {
  if (!runs) return 'This browser lacks WebAssembly memory64 or JSPI, which the CPU engine needs (recent Chrome and Edge have both).';
  if (noGpu) return 'Suggested here: they need no GPU. Slower than a GPU would be; each downloads once.';
  return 'For a GPU too small or too slow for the models above. Slower than a GPU; each downloads once.';
}
