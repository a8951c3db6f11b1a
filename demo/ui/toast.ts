// Short notices: an import done, a chat deleted, something that failed. They
// go away by themselves (errors stay longer), or with their close button.
import { h } from './dom.js';
import { icon } from './icons.js';

const SHOWN_MS = 5000;

export class Toasts {
  constructor(private readonly element: HTMLElement) {}

  show(text: string, kind: 'info' | 'error' = 'info'): void {
    const close = h('button', { class: 'icon-button toast-close', attrs: { type: 'button', 'aria-label': 'Dismiss' } }, icon('close'));
    const toast = h('div', { class: `toast ${kind}`, attrs: { role: kind === 'error' ? 'alert' : 'status' } }, h('p', { text }), close);
    const timer = setTimeout(() => toast.remove(), kind === 'error' ? SHOWN_MS * 3 : SHOWN_MS);
    close.addEventListener('click', () => {
      clearTimeout(timer);
      toast.remove();
    });
    this.element.append(toast);
  }
}
