// The picker's CPU rows: a GGUF model with its size and context window,
// downloaded or not (and deletable), and the row that opens a .gguf from the
// person's disk.
import type { CpuOption } from '../cpu-catalog.js';
import { pickedFile, type ModelChoice } from '../models.js';
import { h } from './dom.js';
import { formatBytes } from './format.js';
import { deleteButton, downloadedBadge, useButton } from './model-row.js';

interface RowState {
  current: string | null;
  loading: boolean;
  /** Sizes (here: of the person's URL) are being asked for. */
  sizing: boolean;
}

interface RowActions {
  pick(choice: ModelChoice): void;
  remove(option: CpuOption): void;
  openFile(file: File): void;
}

export function cpuRow(option: CpuOption, state: RowState, actions: RowActions): HTMLLIElement {
  const { choice, facts } = option;
  const current = state.current === choice.key;
  const file = pickedFile(choice);
  const size = facts.bytes !== undefined ? `${formatBytes(facts.bytes)} ${file ? 'file' : 'download'}` : state.sizing && !file ? 'size…' : 'size unknown';
  const tokens = `${facts.contextWindow < 1024 ? facts.contextWindow : `${Math.round(facts.contextWindow / 1024)}K`}-token context`;
  const why = facts.runnable ? '' : 'Needs WebAssembly memory64 and JSPI.';
  const buttons: HTMLElement[] = [];
  if (facts.cached) buttons.push(deleteButton(choice.label, () => actions.remove(option)));
  const verb = facts.cached || file ? 'Use' : 'Download';
  buttons.push(useButton(choice, { current, loading: state.loading, cannot: !facts.runnable, verb }, actions));
  return h(
    'li',
    { class: 'model-row', dataset: { engine: 'wllama', modelId: facts.id, cached: String(facts.cached), current: String(current) } },
    h(
      'div',
      { class: 'model-info' },
      h('span', { class: 'model-label' }, choice.label, facts.cached ? downloadedBadge() : null),
      // A file's own window is read only when it loads: what is known is the most tabagent gives it.
      h('span', { class: 'model-facts', text: `${size} · ${facts.contextExact ? tokens : `up to ${tokens}`}` }),
      choice.note || why ? h('span', { class: why ? 'model-note warn' : 'model-note', text: why || choice.note! }) : null,
    ),
    h('div', { class: 'model-actions' }, ...buttons),
  );
}

/** "Your own GGUF file": a file input dressed as a button (the input itself takes the click, so the browser's file dialog opens). */
export function ownFileRow(runs: boolean, actions: RowActions): HTMLLIElement {
  const input = h('input', { attrs: { type: 'file', accept: '.gguf', 'aria-label': 'Open a GGUF file' } });
  input.disabled = !runs;
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.value = '';
    if (file) actions.openFile(file);
  });
  return h(
    'li',
    { class: 'model-row own-file' },
    h(
      'div',
      { class: 'model-info' },
      h('span', { class: 'model-label', text: 'Your own GGUF file' }),
      h('span', { class: 'model-note', text: 'Open a .gguf from your disk (nothing downloads), or add ?gguf=<url> to this page’s address (and &ctx=<tokens> for its context size).' }),
    ),
    h('div', { class: 'model-actions' }, h('label', { class: `button small file-button${runs ? '' : ' disabled'}` }, 'Open file…', input)),
  );
}
