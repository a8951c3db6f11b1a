// What a worker exposes to one client: over comlink (rpc/worker-protocol.ts's
// WorkerApi), and its generations on the port it connects
// (rpc/generation-channel.ts). A client is the page of a dedicated worker, or
// one tab of a shared one.
// The model and its queue are the HostedModel every client of the worker
// shares (hosted-model.ts says how loads and requests settle); the ids of
// generations are this client's own.
//
// A client of a shared worker names a Web Lock it holds while it lives
// (`connect`); the lock is granted here once it is released, when the page
// ends the connection or the tab is gone, and the client then leaves: its
// requests are cancelled, waiting or running, and the model lives on while
// another client holds it.
import { GenerationServer, type Generator } from '../rpc/generation-channel.js';
import type { CachedModelSource, EngineInfo, ModelSpec, Respond, WorkerApi } from '../rpc/worker-protocol.js';
import type { LoadProgress, ModelRequest, ModelResponse } from '../shared/model.js';
import { engines } from './engine-modules.js';
import { HostedModel, type HostClient } from './hosted-model.js';

/** Resolves once the client holding the lock `name` is gone. */
export type ClientWatch = (name: string) => Promise<unknown>;

export class EngineHost implements WorkerApi, HostClient, Generator {
  sender: GenerationServer | null = null;
  /** Per request waiting or running: what cancels it. */
  readonly #stops = new Map<number, AbortController>();
  #left = false;

  constructor(
    private readonly model = new HostedModel(),
    private readonly watch?: ClientWatch,
  ) {}

  ping(): true {
    return true;
  }

  connect(port: MessagePort, client?: string): void {
    this.sender = new GenerationServer(port, this);
    if (client !== undefined && this.watch) void this.watch(client).then(() => this.#leave());
  }

  load(spec: ModelSpec, onProgress?: (p: LoadProgress) => void, respond?: Respond): Promise<EngineInfo> {
    return this.model.load(this, spec, onProgress, respond);
  }

  /** One request, queued behind every client's; `id` names it to `cancel`. */
  generate(id: number, request: ModelRequest, callInputs = false): Promise<ModelResponse> {
    const stop = new AbortController();
    if (this.#left) stop.abort();
    this.#stops.set(id, stop);
    return this.model.run(this, id, request, stop.signal, callInputs).finally(() => this.#stops.delete(id));
  }

  /** Stop one request: interrupt it if it runs, drop it if it waits (it then resolves with finishReason 'abort'). */
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

  #leave(): void {
    this.#left = true;
    for (const stop of this.#stops.values()) stop.abort();
    this.model.leave(this);
  }
}
