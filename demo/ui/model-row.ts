// Pieces every row of the model picker shares: the button that picks the
// model (its words say where the model stands) and the "Downloaded" mark.
import type { ModelChoice } from '../models.js';
import { h } from './dom.js';

export interface UseState {
  /** The row's model is the one running or loading. */
  current: boolean;
  loading: boolean;
  /** It cannot run in this browser. */
  cannot: boolean;
  verb: 'Use' | 'Download';
}

export function useButton(choice: ModelChoice, { current, loading, cannot, verb }: UseState, actions: { pick(choice: ModelChoice): void }): HTMLButtonElement {
  const text = cannot ? 'Can’t run here' : current ? (loading ? 'Loading…' : 'In use') : verb;
  const button = h('button', { class: `button small${current || cannot ? '' : ' primary'}`, text, attrs: { type: 'button', 'aria-label': `${verb} ${choice.label}` } });
  button.disabled = cannot || current;
  button.addEventListener('click', () => actions.pick(choice));
  return button;
}

export function downloadedBadge(): HTMLSpanElement {
  return h('span', { class: 'badge ok', text: 'Downloaded' });
}

export function deleteButton(label: string, remove: () => void): HTMLButtonElement {
  const button = h('button', { class: 'button small quiet', text: 'Delete', attrs: { type: 'button', 'aria-label': `Delete the downloaded ${label}`, title: 'Free the space it takes in this browser' } });
  button.addEventListener('click', remove);
  return button;
}
