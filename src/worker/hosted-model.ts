// The one model a worker hosts, and its queue: every client of the worker
// (the page of a dedicated worker; each tab of a shared one) generates on it.
//
// How loads settle:
// - A load of the model already there (or loading), by its key (rpc/model-key.ts),
//   joins it: no second download, no second load; the client gets the same info,
//   or the same failure.
// - A load of another model replaces the one there (it is unloaded first: one
//   model on the GPU at a time), unless another client holds it: then it is
//   refused with SharedModelConflictError, and theirs runs on.
// - When the last client holding the model leaves, it is unloaded.
//
// How requests settle:
// - They run one at a time, in the order they arrive, whichever client asks:
//   the engine has one KV cache and an engine-wide interrupt.
// - A request cancelled while it waits never runs, and resolves at once, empty,
//   with finishReason 'abort'; one cancelled while it runs is interrupted and
//   resolves with what it had, finishReason 'abort'. Only the running request's
//   own cancel interrupts the engine, so one client never stops another's.
// - Every request ends on its client's generation channel with its response
//   (or its error), after its last text: nothing lands after the result.
import { releaseProxy, type ProxyMethods } from 'comlink';
import { InvalidOptionsError, SharedModelConflictError } from '../errors/index.js';
import type { GenerationServer } from '../rpc/generation-channel.js';
import { modelKey } from '../rpc/model-key.js';
import type { EngineInfo, FakeRequest, ModelSpec, Respond } from '../rpc/worker-protocol.js';
import type { LoadProgress, ModelRequest, ModelResponse } from '../shared/model.js';
import { Serial } from '../shared/serial.js';
import { loadModel, type LoadedModel } from './load-model.js';
import { runRequest, type RequestOutput } from './run-request.js';

/** One client of the hosted model, as the model sees it. */
export interface HostClient {
  /** Where news of this client's generations goes. */
  readonly sender: GenerationServer | null;
}

interface Loaded {
  model: Promise<LoadedModel>;
  /** Null: a model no other client can name, never joined. */
  key: string | null;
  modelId: string;
  /** The clients using it; it is unloaded when the last leaves. */
  holders: Set<HostClient>;
}

export class HostedModel {
  #loaded: Loaded | null = null;
  /** The last model's unload, which the next load waits for. */
  #unloading: Promise<void> = Promise.resolve();
  readonly #requests = new Serial();
  /** The request running now: whose records a fake sends, and whose script answers. */
  #running: { client: HostClient; id: number } | null = null;
  /** Each client's fake function script, where the model is a fake with one. */
  readonly #scripts = new Map<HostClient, Respond>();

  load(client: HostClient, spec: ModelSpec, onProgress?: (p: LoadProgress) => void, respond?: Respond): Promise<EngineInfo> {
    const key = modelKey(spec);
    const loaded = this.#loaded;
    if (respond) this.#scripts.set(client, respond);
    if (loaded && key !== null && key === loaded.key) {
      loaded.holders.add(client);
      // The model is loading or loaded already: this client's progress callback is never called.
      (onProgress as Partial<ProxyMethods> | undefined)?.[releaseProxy]?.();
      return loaded.model.then((m) => m.info);
    }
    if (loaded && [...loaded.holders].some((holder) => holder !== client)) {
      return Promise.reject(new SharedModelConflictError(loaded.modelId, spec.modelId));
    }
    this.#unload();
    const unloading = this.#unloading;
    // A fake's function script is the running client's own: each tab's answers its own requests.
    const script: Respond | undefined = respond && ((request) => this.#script(request));
    const model = unloading.then(() => loadModel(spec, onProgress, script, (request) => this.#noteRequest(request)));
    const next: Loaded = { model, key, modelId: spec.modelId, holders: new Set([client]) };
    this.#loaded = next;
    model.catch(() => {
      if (this.#loaded === next) this.#loaded = null;
    });
    return model.then((m) => m.info);
  }

  /** Queue `request` behind every other client's; `signal` cancels it. */
  run(client: HostClient, id: number, request: ModelRequest, signal: AbortSignal, callInputs = false): Promise<ModelResponse> {
    let started = false;
    return this.#requests
      .run(() => {
        started = true;
        return this.#generate(client, id, request, signal, callInputs);
      }, signal)
      .catch((error: unknown) => {
        if (!started && signal.aborted) return aborted();
        throw error;
      });
  }

  /** The client is gone (its requests are cancelled by its host): the model lives while another holds it. */
  leave(client: HostClient): void {
    // The script is a comlink proxy to the tab: release its port.
    (this.#scripts.get(client) as Partial<ProxyMethods> | undefined)?.[releaseProxy]?.();
    this.#scripts.delete(client);
    const loaded = this.#loaded;
    if (!loaded?.holders.delete(client) || loaded.holders.size > 0) return;
    this.#unload();
  }

  /** The model there is unloaded, once it has loaded (or failed to). */
  #unload(): void {
    const loaded = this.#loaded;
    this.#loaded = null;
    if (!loaded) return;
    const before = this.#unloading;
    this.#unloading = loaded.model.then(
      (m) => m.engine.unload(),
      () => undefined,
    ).then(() => before);
  }

  async #generate(client: HostClient, id: number, request: ModelRequest, signal: AbortSignal, callInputs: boolean): Promise<ModelResponse> {
    const loaded = this.#loaded;
    if (!loaded?.holders.has(client)) throw new InvalidOptionsError('model', 'no model is loaded');
    this.#running = { client, id };
    try {
      const model = await loaded.model;
      if (signal.aborted) return aborted();
      const interrupt = () => model.engine.interrupt();
      signal.addEventListener('abort', interrupt, { once: true });
      try {
        const { sender } = client;
        const out: RequestOutput = { text: (delta) => sender?.text(id, delta), reasoning: (delta) => sender?.reasoning(id, delta) };
        if (callInputs) out.callInput = (event) => sender?.callInput(id, event);
        return await runRequest(model, request, out);
      } finally {
        signal.removeEventListener('abort', interrupt);
      }
    } finally {
      this.#running = null;
    }
  }

  #script(request: FakeRequest) {
    const respond = this.#running && this.#scripts.get(this.#running.client);
    if (!respond) throw new InvalidOptionsError('model', 'the fake model needs its script');
    return respond(request);
  }

  #noteRequest(request: FakeRequest): void {
    const running = this.#running;
    if (running) running.client.sender?.request(running.id, request);
  }
}

export function aborted(): ModelResponse {
  return { raw: '', text: '', reasoning: '', calls: [], finishReason: 'abort', usage: { promptTokens: 0, completionTokens: 0 } };
}
