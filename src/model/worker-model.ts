// The page's view of the model in the worker: a ChatModel whose AbortSignal
// becomes a cancel call and whose text arrives over the text channel.
import type { GenerationReceiver } from '../rpc/generation-channel.js';
import type { EngineInfo, FakeRequest, WorkerApi } from '../rpc/worker-protocol.js';
import type { ChatModel, EngineHost, GenerateOptions, ModelInfo, ModelRequest, ModelResponse } from '../shared/model.js';

/** What the model calls in the worker. */
export type ModelHost = Pick<WorkerApi, 'generate' | 'cancel'>;

/** The worker as the model sees it; tests can connect an in-thread engine host the same way. */
export interface ModelConnection {
  readonly generations: GenerationReceiver;
  /** Call the host; settles like the call, or rejects when the worker is (or goes) dead. */
  call<T>(use: (host: ModelHost) => Promise<T>, watch?: boolean): Promise<T>;
  track<T>(promise: Promise<T>): Promise<T>;
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
    const { connection } = this;
    const { signal, onText, onReasoning, onCallInput } = options;
    const id = this.#nextId++;
    const ended = connection.generations.listen(id, { onText, onReasoning, onCallInput, onRequest: this.onRequest });
    const cancel = () => void connection.call(async (host) => host.cancel(id)).catch(() => undefined);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const generating = connection.call((host) => host.generate(id, request), true);
      // Sent after the generate call, so the worker knows the id when the cancel arrives.
      if (signal?.aborted) cancel();
      let response: ModelResponse;
      try {
        response = await generating;
      } finally {
        // Every delta (and record) is delivered before this settles — also when
        // the generation failed, so the caller knows what was shown. They travel
        // on another port; a dead worker rejects at once.
        await connection.track(ended).catch(() => undefined);
      }
      return response;
    } finally {
      signal?.removeEventListener('abort', cancel);
      connection.generations.forget(id);
    }
  }
}
