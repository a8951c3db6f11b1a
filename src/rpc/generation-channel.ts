// Generations, on a MessagePort of their own between the page and the worker:
// the page sends a request (or a cancel) as one plain message; the worker
// sends back what the model writes as it writes it, and last the end, which
// carries the response or the error. One port both ways, so nothing about a
// generation can land after its end, and a hop costs one message each way
// beyond what streams (a comlink call would add its own return message, and
// its proxy and wire values, to both sides).
// A request crosses as little of itself as the worker lacks (request-wire.ts).
import type { CallInputEvent, ModelRequest, ModelResponse } from '../shared/model.js';
import { fromWire, toWire } from './error-transfer.js';
import { RequestReader, RequestWriter } from './request-wire.js';
import type { FakeRequest, GenerationCall, GenerationMessage } from './worker-protocol.js';

/** What a worker does with the generations a client asks for. */
export interface Generator {
  /** Settles once the generation ends; `callInputs`: the client follows calls as they are written. */
  generate(id: number, request: ModelRequest, callInputs: boolean): Promise<ModelResponse>;
  cancel(id: number): void;
}

/** The worker's end of one client's port. */
export class GenerationServer {
  readonly #requests = new RequestReader();

  constructor(
    private readonly port: MessagePort,
    generator: Generator,
  ) {
    port.onmessage = (event: MessageEvent<GenerationCall>) => {
      const call = event.data;
      if (call.kind === 'cancel') return generator.cancel(call.id);
      const request = this.#requests.read(call.request);
      if (!request) return this.#post({ id: call.id, kind: 'failed', error: toWire(new Error('the page named a tool or message list this worker does not hold')) });
      generator.generate(call.id, request, call.callInputs).then(
        (response) => this.#end(call.id, response),
        (error: unknown) => this.#post({ id: call.id, kind: 'failed', error: toWire(error) }),
      );
    };
  }

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

  #end(id: number, response: ModelResponse): void {
    try {
      this.#post({ id, kind: 'end', response });
    } catch (error) {
      // A response that cannot cross (DataCloneError) still ends the generation.
      this.#post({ id, kind: 'failed', error: toWire(error) });
    }
  }

  #post(message: GenerationMessage): void {
    this.port.postMessage(message);
  }
}

export interface GenerationListener {
  onText?: (delta: string) => void;
  onReasoning?: (delta: string) => void;
  /** Given: the worker tells calls as they are written; not given, it neither reads nor sends them. */
  onCallInput?: (event: CallInputEvent) => void;
  onRequest?: (request: FakeRequest) => void;
}

interface Pending extends GenerationListener {
  resolve(response: ModelResponse): void;
  reject(error: unknown): void;
}

/** The page's end of the port. */
export class GenerationClient {
  readonly #pending = new Map<number, Pending>();
  readonly #requests = new RequestWriter();

  constructor(private readonly port: MessagePort) {
    port.onmessage = (event: MessageEvent<GenerationMessage>) => {
      const message = event.data;
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      switch (message.kind) {
        case 'text':
          pending.onText?.(message.delta);
          break;
        case 'reasoning':
          pending.onReasoning?.(message.delta);
          break;
        case 'call-input':
          pending.onCallInput?.(message.event);
          break;
        case 'request':
          pending.onRequest?.(message.request);
          break;
        case 'end':
          this.#pending.delete(message.id);
          pending.resolve(message.response);
          break;
        case 'failed':
          this.#pending.delete(message.id);
          pending.reject(fromWire(message.error));
      }
    };
  }

  /** Ask for one generation, named `id` (unique among this client's); settles with its end, after all its news. */
  generate(id: number, request: ModelRequest, listener: GenerationListener): Promise<ModelResponse> {
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { ...listener, resolve, reject });
      const { wire, sent } = this.#requests.write(request);
      try {
        this.#post({ kind: 'generate', id, request: wire, callInputs: listener.onCallInput !== undefined });
        sent();
      } catch (error) {
        // A request that cannot be cloned never left.
        this.#pending.delete(id);
        reject(error);
      }
    });
  }

  /** Stop generation `id`: interrupted if it runs, dropped if it waits (it then ends with finishReason 'abort'). */
  cancel(id: number): void {
    this.#post({ kind: 'cancel', id });
  }

  /** Stop listening to `id` (the worker is gone): nothing more of it is delivered. */
  forget(id: number): void {
    this.#pending.delete(id);
  }

  #post(call: GenerationCall): void {
    this.port.postMessage(call);
  }
}
