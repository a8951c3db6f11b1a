// The message box: Enter sends, Shift+Enter breaks the line, and while a reply
// runs the Send button becomes Stop.

export interface ComposerActions {
  send(text: string): void;
  stop(): void;
}

export class Composer {
  #busy = false;
  #enabled = false;

  constructor(
    private readonly form: HTMLFormElement,
    private readonly input: HTMLTextAreaElement,
    private readonly button: HTMLButtonElement,
    actions: ComposerActions,
  ) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (this.#busy) return actions.stop();
      const text = input.value.trim();
      if (!text) return;
      input.value = '';
      this.#fit();
      actions.send(text);
    });
    input.addEventListener('keydown', (event) => {
      // isComposing: Enter that confirms an IME candidate (Japanese, Chinese…) is not "send".
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
      event.preventDefault();
      // Enter while a reply runs keeps the text for later, instead of stopping the reply by surprise.
      if (!this.#busy) form.requestSubmit();
    });
    input.addEventListener('input', () => this.#fit());
  }

  /** `placeholder` says what to do (or wait for) before one can write. */
  setEnabled(enabled: boolean, placeholder = 'Message the assistant'): void {
    this.#enabled = enabled;
    this.input.disabled = !enabled;
    // Stop stays available while a reply runs, whatever happens to the model meanwhile.
    this.button.disabled = !enabled && !this.#busy;
    this.input.placeholder = placeholder;
  }

  setBusy(busy: boolean): void {
    this.#busy = busy;
    this.button.textContent = busy ? 'Stop' : 'Send';
    this.button.classList.toggle('stop', busy);
    this.button.setAttribute('aria-label', busy ? 'Stop the reply (Escape)' : 'Send (Enter)');
    this.form.dataset.busy = String(busy);
    this.button.disabled = !this.#enabled && !busy;
  }

  focus(): void {
    // On phones, focusing opens the keyboard over half the screen: only do it where there is a real keyboard.
    if (matchMedia('(pointer: fine)').matches) this.input.focus();
  }

  /** Grow with the text, up to the CSS max-height. */
  #fit(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${this.input.scrollHeight}px`;
  }
}
