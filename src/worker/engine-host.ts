// What the worker exposes over comlink (rpc/worker-protocol.ts's WorkerApi):
// one model at a time, and its requests one at a time. Loading is
// load-model.ts's job, running a request run-request.ts's.
//
// How requests settle:
// - They run one at a time, in the order asked: the engine has one KV cache
//   and an engine-wide interrupt.
// - A request cancelled while it waits never runs, and resolves at once, empty,
//   with finishReason 'abort'; one cancelled while it runs is interrupted and
//   resolves with what it had, finishReason 'abort'.
// - Every request's id gets its `end` on the generation channel, after its
//   last text: the page waits for it, so nothing lands after the result.
import { InvalidOptionsError } from '../errors/index.js';
import { GenerationSender } from '../rpc/generation-channel.js';
import type { CachedModelSource, EngineInfo, FakeRequest, ModelSpec, Respond, WorkerApi } from '../rpc/worker-protocol.js';
import type { LoadProgress, ModelRequest, ModelResponse } from '../shared/model.js';
import { Serial } from '../shared/serial.js';
import { engines } from './engine-modules.js';
import { loadModel, type LoadedModel } from './load-model.js';
import { runRequest } from './run-request.js';

export class EngineHost implements WorkerApi {
  #sender: GenerationSender | null = null;
  /** The model, loaded or loading; a new load replaces it. */
  #model: Promise<LoadedModel> | null = null;
  readonly #requests = new Serial();
  /** Per request waiting or running: what cancels it. */
  readonly #stops = new Map<number, AbortController>();
  /** The request running now, whose records a fake sends. */
  #running: number | null = null;

  ping(): true {
    return true;
  }

  connect(port: MessagePort): void {
    this.#sender = new GenerationSender(port);
  }

  load(spec: ModelSpec, onProgress?: (p: LoadProgress) => void, respond?: Respond): Promise<EngineInfo> {
    const previous = this.#model;
    const model = (async () => {
      // One model on the GPU at a time: the one before goes first.
      await previous?.then((m) => m.engine.unload(), () => undefined);
      return loadModel(spec, onProgress, respond, (request) => this.#noteRequest(request));
    })();
    this.#model = model;
    model.catch(() => {
      if (this.#model === model) this.#model = null;
    });
    return model.then((m) => m.info);
  }

  generate(id: number, request: ModelRequest): Promise<ModelResponse> {
    const stop = new AbortController();
    this.#stops.set(id, stop);
    const sender = this.#sender;
    let started = false;
    const run = this.#requests.run(() => {
      started = true;
      return this.#run(id, request, stop.signal);
    }, stop.signal);
    return run
      .catch((error: unknown) => {
        if (!started && stop.signal.aborted) return aborted();
        throw error;
      })
      .finally(() => {
        this.#stops.delete(id);
        sender?.end(id);
      });
  }

  cancel(id: number): void {
    this.#stops.get(id)?.abort();
  }

  async modelCache(action: 'has' | 'delete', source: CachedModelSource): Promise<boolean> {
    if (source.kind === 'gguf') {
      const { isCached, deleteCached } = await engines.wllama();
      if (action === 'has') return isCached(source.url);
      await deleteCached(source.url);
      return false;
    }
    const { isCached, deleteCached } = await engines.webllm();
    const { kind: _, ...webllm } = source;
    if (action === 'has') return isCached(webllm);
    await deleteCached(webllm);
    return false;
  }

  async #run(id: number, request: ModelRequest, signal: AbortSignal): Promise<ModelResponse> {
    if (!this.#model) throw new InvalidOptionsError('model', 'no model is loaded');
    this.#running = id;
    try {
      const model = await this.#model;
      if (signal.aborted) return aborted();
      const interrupt = () => model.engine.interrupt();
      signal.addEventListener('abort', interrupt, { once: true });
      try {
        const sender = this.#sender;
        return await runRequest(model, request, { text: (delta) => sender?.text(id, delta), reasoning: (delta) => sender?.reasoning(id, delta), callInput: (event) => sender?.callInput(id, event) });
      } finally {
        signal.removeEventListener('abort', interrupt);
      }
    } finally {
      this.#running = null;
    }
  }

  #noteRequest(request: FakeRequest): void {
    if (this.#running !== null) this.#sender?.request(this.#running, request);
  }
}

function aborted(): ModelResponse {
  return { raw: '', text: '', reasoning: '', calls: [], finishReason: 'abort', usage: { promptTokens: 0, completionTokens: 0 } };
}
