// A button that copies some text to the clipboard and says so for a moment.
import { h } from './dom.js';
import { icon } from './icons.js';

const SAID_MS = 1500;

export function copyButton(label: string, text: () => string): HTMLButtonElement {
  const word = h('span', { text: 'Copy' });
  const button = h('button', { class: 'copy-button', attrs: { type: 'button', 'aria-label': label, title: label } }, icon('copy'), word);
  let timer = 0;
  button.addEventListener('click', () => {
    const say = (done: string) => {
      word.textContent = done;
      button.dataset.copied = done === 'Copied' ? 'true' : 'false';
      clearTimeout(timer);
      timer = window.setTimeout(() => {
        word.textContent = 'Copy';
        delete button.dataset.copied;
      }, SAID_MS);
    };
    // The Clipboard API needs a secure context (https, or localhost) and the page's focus.
    navigator.clipboard?.writeText(text()).then(
      () => say('Copied'),
      () => say('Could not copy'),
    ) ?? say('Could not copy');
  });
  return button;
}
