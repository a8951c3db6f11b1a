// The agent's model, in its worker. Chats hold this object, so when the worker
// dies (or the GPU is lost) `restart` swaps in a new worker and model under
// them, and they carry on.
import { proxy } from 'comlink';
import { InvalidOptionsError, isEngineUnavailableError } from '../errors/index.js';
import { Serial } from '../shared/serial.js';
import type { WorkerLauncher } from './open-worker.js';
import { openHost, type OpenedHost } from './open-host.js';
import type { ChatModel, GenerateOptions, LoadProgress, ModelInfo, ModelRequest, ModelResponse } from '../shared/model.js';
import { WorkerConnection } from './worker-connection.js';
import { WorkerModel } from './worker-model.js';
import { isModelFamily, MODEL_FAMILIES, type ModelFamily } from '../shared/tool-protocol.js';
import type { ModelSpec } from '../rpc/worker-protocol.js';
import { scriptFor, type ScriptedModel } from './scripted-model.js';
import { webllmSource, type WebLLMModel } from './webllm-model.js';
import { ggufModelId, namesGguf, type GgufModel } from './gguf-name.js';
import { isServerModel, type ServerLanguageModel } from './server/language-model.js';

export interface ModelOptions {
  /**
   * A WebLLM model id (e.g. 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC') or a
   * self-hosted WebLLM model (WebGPU); a GGUF model for the CPU, by curated id
   * (e.g. 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF') or `{ gguf: url | Blob }`; or `fakeModel(...)`.
   */
  model: string | WebLLMModel | GgufModel | ScriptedModel | ServerLanguageModel;
  /**
   * What to run where this device cannot run `model`: one GGUF model for the
   * CPU (no WebGPU, or no shader-f16 for an f16 build), or a list tried in
   * order, of any kind `model` takes ('chrome-builtin', a GGUF, a server
   * model…). Each one skipped is told as an 'engine-skipped' model-warning.
   */
  fallback?: string | GgufModel | ServerLanguageModel | Array<ModelOptions['model']>;
  /** The tool-call format, when the model id does not tell (default: from the id). */
  family?: ModelFamily;
  /** Constrain tool calls with a grammar (default true). */
  grammar?: boolean;
  /** Download and load progress. */
  onProgress?: (progress: LoadProgress) => void;
  /** Where the worker script is, when it is not next to this module (self-hosting, CDNs). */
  workerUrl?: string | URL;
  /** How long to wait for the worker to start (default 15000 ms). */
  startTimeoutMs?: number;
  /** How long the worker may go without answering while a reply is generated before it counts as crashed (default 15000 ms). */
  workerTimeoutMs?: number;
  /**
   * Share the model with every tab of this origin that asks for the same one
   * (default false): it runs in a SharedWorker named for the model, loaded
   * once, one copy in memory, generations queued across tabs. Where that
   * cannot be (no SharedWorker in this browser, a worker script on another
   * origin, a model from a Blob), it runs in a worker of this tab's own, and
   * `ModelInfo.host` and a `model-warning` ('not-shared') say so.
   */
  shared?: boolean;
}

interface Running {
  connection: WorkerConnection;
  model: WorkerModel;
  /** The shared worker's epoch (open-host.ts), when it runs in one. */
  epoch?: number;
}

/** How `run` starts: why a dedicated worker runs a model asked to be shared; the epoch of a shared worker seen to die. */
interface RunAfter {
  notShared?: string;
  crashed?: number;
}

// How restarts and closing settle:
// - Restarts run one at a time, in call order; each ends the worker before it.
// - Generations asked for during a restart wait for the new worker.
// - A restart that fails ends the session, as close(error) would: the
//   generations and restarts waiting for it reject with its error, not as if
//   aborted (the old worker is gone and the new one never came up).
// - close() wins: a restart in flight ends its new worker at once (so its
//   download stops) and rejects, as everything waiting does, with close's
//   reason (AgentClosedError when the agent closes); nothing is left running.
export class ModelSession implements ChatModel {
  #running: Running;
  #options: ModelOptions;
  readonly #restarts = new Serial();
  /** The restart in flight, for generations to wait on. */
  #restarting: Promise<unknown> | null = null;
  /** Aborted, with why, when the session ends (closed, or a restart failed): it stops a restart in flight. */
  readonly #ended = new AbortController();

  private constructor(
    running: Running,
    options: ModelOptions,
    private readonly launch: WorkerLauncher,
  ) {
    this.#running = running;
    this.#options = options;
  }

  /**
   * Start a worker and load the model in it. `started` settles once the worker
   * is up (or failed to start, or was cancelled first), `loaded` once the
   * model is. Aborting `signal` ends the worker at once, so its downloads
   * stop; `loaded` then rejects with the signal's reason.
   */
  static begin(options: ModelOptions, launch: WorkerLauncher, signal?: AbortSignal): { started: Promise<void>; loaded: Promise<ModelSession> } {
    const { started, loaded } = run(options, launch, signal);
    return { started, loaded: loaded.then((running) => new ModelSession(running, options, launch)) };
  }

  get info(): ModelInfo {
    return this.#running.model.info;
  }

  async generate(request: ModelRequest, options?: GenerateOptions): Promise<ModelResponse> {
    while (this.#restarting) await this.#restarting.catch(() => undefined);
    this.#ended.signal.throwIfAborted();
    return this.#running.model.generate(request, options);
  }

  /** A new worker with the same model, or with `changes` (say, a smaller model after running out of memory). */
  restart(changes: Partial<ModelOptions> = {}): Promise<ModelInfo> {
    const ended = this.#ended.signal;
    const restarting = this.#restarts.run(async () => {
      ended.throwIfAborted();
      const options = { ...this.#options, ...changes };
      // A shared worker that died (or hangs: no tab can end it) is left for a new one.
      const { connection, epoch } = this.#running;
      const crashed = connection.alive ? undefined : epoch;
      // Deliberate, not a crash: a generation in flight ends as if aborted.
      connection.terminate(new DOMException('The model was restarted.', 'AbortError'));
      let running: Running;
      try {
        running = await run(options, this.launch, ended, { crashed }).loaded;
      } catch (error) {
        // Nothing runs any more. (Closed first? Then close's reason stands.)
        this.#ended.abort(error);
        throw ended.reason;
      }
      // Closed just as the model loaded: the abort no longer reached its worker.
      if (ended.aborted) {
        running.connection.terminate(ended.reason as Error);
        throw ended.reason;
      }
      this.#running = running;
      this.#options = options;
      return this.info;
    }, ended);
    this.#restarting = restarting;
    const settled = () => {
      if (this.#restarting === restarting) this.#restarting = null;
    };
    restarting.then(settled, settled);
    return restarting;
  }

  /** End the worker (and a restart's new one); what was pending, or waits for a restart, rejects with `reason`. */
  close(reason: Error): void {
    this.#ended.abort(reason);
    this.#running.connection.terminate(reason);
  }
}

function run(options: ModelOptions, launch: WorkerLauncher, signal?: AbortSignal, after: RunAfter = {}): { started: Promise<void>; loaded: Promise<Running> } {
  let spec: ModelSpec;
  let opened: OpenedHost;
  // Bad options fail before any worker starts.
  const connecting = modelSpec(options).then(async (resolved) => {
    spec = resolved;
    opened = await openHost(options, spec, launch, after.crashed);
    if (after.notShared) opened.notShared = after.notShared;
    return WorkerConnection.start(opened.worker, options.startTimeoutMs ?? 15_000, { timeoutMs: options.workerTimeoutMs ?? 15_000 }, signal, opened.client);
  });
  const loaded = connecting.then(async (connection) => {
    const fake = scriptFor(options.model);
    // Ending the worker is what stops WebLLM's downloads; nothing half-fetched is cached.
    const stop = () => connection.terminate(signal!.reason as Error);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      signal?.throwIfAborted();
      const onProgress = options.onProgress ? proxy(options.onProgress) : undefined;
      const respond = fake?.respond && proxy(fake.respond);
      const info = await connection.track(connection.host.load(spec!, onProgress, respond));
      const { host, notShared, epoch } = opened;
      return { connection, epoch, model: new WorkerModel(connection, notShared ? { ...info, notShared } : info, fake?.record, host) };
    } catch (error) {
      connection.terminate(error as Error);
      if (signal?.aborted) throw signal.reason;
      // The shared worker cannot run this engine here (wllama, where the shared worker's policy
      // refuses the blob: module it runs llama.cpp from): a worker of this tab's own runs it, and says why.
      if (opened.host === 'shared-worker' && isEngineUnavailableError(error)) return run({ ...options, shared: false }, launch, signal, { notShared: error.reason }).loaded;
      throw error;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  });
  // Cancelled while the worker started is no failure to start: `loaded` tells of it.
  const started = connecting.then(
    () => undefined,
    (error: unknown) => {
      if (!signal?.aborted || error !== signal.reason) throw error;
    },
  );
  return { started, loaded };
}

/** What the worker needs to load the model `options` name (a GGUF's curated list is loaded only for a GGUF). */
export async function modelSpec(options: ModelOptions): Promise<ModelSpec> {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionsError('options', 'createAgent needs an options object');
  if (options.family !== undefined && !isModelFamily(options.family)) {
    throw new InvalidOptionsError('family', `must be one of ${MODEL_FAMILIES.map((f) => `'${f}'`).join(', ')}, not ${JSON.stringify(options.family)}`);
  }
  const { model } = options;
  const fake = scriptFor(model);
  if (fake) {
    const { modelId, template, contextWindow, tokenDelayMs, outputs, record, firstTurn, load } = fake;
    return { kind: 'fake', modelId, template, contextWindow, tokenDelayMs, outputs, load, firstTurn: firstTurn(), recordRequests: record !== undefined, family: options.family ?? fake.family, grammar: options.grammar ?? fake.grammar };
  }
  // start-model.ts sends no server model here, and a fallback list (or a model of another kind) is its chain: the worker tries one GGUF.
  const { family, grammar, fallback } = options;
  if (namesGguf(model)) return (await import('./gguf-model.js')).ggufSpec(model, { family, grammar });
  const source = webllmSource(model);
  if (fallback === undefined) return { kind: 'webllm', ...source, family, grammar };
  return { kind: 'webllm', ...source, family, grammar, fallback: (await import('./gguf-model.js')).ggufSpec(fallback as string | GgufModel, { family, grammar }) };
}

/** The id a model goes by, known at once (for events while it loads); throws on options that name no model. */
export function modelIdOf(options: ModelOptions): string {
  const { model } = options;
  if (isServerModel(model)) return model.modelId;
  const fake = scriptFor(model);
  if (fake) return fake.modelId;
  return namesGguf(model) ? ggufModelId(model as string | GgufModel) : webllmSource(model).modelId;
}
