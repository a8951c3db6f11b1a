// The page's view of the model in the worker: a ChatModel whose requests,
// news and cancels go over the generation channel.
import type { GenerationClient } from '../rpc/generation-channel.js';
import type { EngineInfo, FakeRequest } from '../rpc/worker-protocol.js';
import type { ChatModel, EngineHost, GenerateOptions, ModelInfo, ModelRequest, ModelResponse } from '../shared/model.js';

/** The worker as the model sees it; tests can connect an in-thread engine host the same way. */
export interface ModelConnection {
  readonly generations: GenerationClient;
  /** Settles like `promise`, or rejects when the worker is (or goes) dead; `watch`: ping it meanwhile. */
  track<T>(promise: Promise<T>, watch?: boolean): Promise<T>;
}

export class WorkerModel implements ChatModel {
  #nextId = 1;
  readonly info: ModelInfo;

  constructor(
    private readonly connection: ModelConnection,
    info: EngineInfo,
    /** A fake model's record of each request, delivered before the generation ends. */
    private readonly onRequest?: (request: FakeRequest) => void,
    /** Where the worker runs: the page's own, or one every tab shares. */
    host: Extract<EngineHost, 'worker' | 'shared-worker'> = 'worker',
  ) {
    this.info = { ...info, host };
  }

  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    const { generations } = this.connection;
    const { signal, onText, onReasoning, onCallInput } = options;
    const id = this.#nextId++;
    const cancel = () => generations.cancel(id);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      // Every delta (and record) is delivered before this settles, also when the
      // generation failed: they come on the same port, before its end.
      const generating = this.connection.track(generations.generate(id, request, { onText, onReasoning, onCallInput, onRequest: this.onRequest }), true);
      // Sent after the request, so the worker knows the id when the cancel arrives.
      if (signal?.aborted) cancel();
      return await generating;
    } finally {
      signal?.removeEventListener('abort', cancel);
      generations.forget(id);
    }
  }
}
