// What the worker tells the page about a generation while it runs, on a
// MessagePort of its own: plain messages, one postMessage each, no reply and
// no proxy per call. `end` comes last; the page waits for it, so nothing about
// a generation lands after its result.
import type { CallInputEvent } from '../shared/model.js';
import type { FakeRequest, GenerationMessage } from './worker-protocol.js';

export class GenerationSender {
  constructor(private readonly port: MessagePort) {}

  text(id: number, delta: string): void {
    if (delta) this.#post({ id, kind: 'text', delta });
  }

  reasoning(id: number, delta: string): void {
    if (delta) this.#post({ id, kind: 'reasoning', delta });
  }

  callInput(id: number, event: CallInputEvent): void {
    this.#post({ id, kind: 'call-input', event });
  }

  request(id: number, request: FakeRequest): void {
    this.#post({ id, kind: 'request', request });
  }

  end(id: number): void {
    this.#post({ id, kind: 'end' });
  }

  #post(message: GenerationMessage): void {
    this.port.postMessage(message);
  }
}

export interface GenerationListener {
  onText?: (delta: string) => void;
  onReasoning?: (delta: string) => void;
  onCallInput?: (event: CallInputEvent) => void;
  onRequest?: (request: FakeRequest) => void;
}

export class GenerationReceiver {
  readonly #listeners = new Map<number, GenerationListener & { ended: () => void }>();

  constructor(port: MessagePort) {
    port.onmessage = (event: MessageEvent<GenerationMessage>) => {
      const message = event.data;
      const listener = this.#listeners.get(message.id);
      if (!listener) return;
      switch (message.kind) {
        case 'text':
          listener.onText?.(message.delta);
          break;
        case 'reasoning':
          listener.onReasoning?.(message.delta);
          break;
        case 'call-input':
          listener.onCallInput?.(message.event);
          break;
        case 'request':
          listener.onRequest?.(message.request);
          break;
        case 'end':
          this.#listeners.delete(message.id);
          listener.ended();
      }
    };
  }

  /** Listen to one generation; resolves when the worker ends it. */
  listen(id: number, listener: GenerationListener): Promise<void> {
    return new Promise((ended) => this.#listeners.set(id, { ...listener, ended }));
  }

  /** Stop listening (the request failed, or the worker is gone). */
  forget(id: number): void {
    const listener = this.#listeners.get(id);
    this.#listeners.delete(id);
    listener?.ended();
  }
}
