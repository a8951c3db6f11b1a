// The agent's model slot: empty, loading, ready or failed. Chats hold it as
// their ChatModel, so the store and its chats work before any model is
// there, and carry on when the model is replaced.
//
// How it settles:
// - One load at a time: a new load cancels the one in flight (its worker ends)
//   and replaces the model that was ready (its worker, and the new worker of a
//   restart in flight, end before the new load starts, so two models never
//   hold the GPU at once).
// - A cancelled load leaves the slot empty ('idle'); a failed one 'failed',
//   with its error; the next load starts afresh either way.
// - A restart keeps the model 'ready' (generations wait for its new worker);
//   one that fails leaves the slot 'failed' with its error, as a failed load
//   does, and a next restart loads afresh.
// - A generation waits for a load in flight; with no model, or a failed
//   load, it rejects at once (ModelNotLoadedError, or the load's own error).
// - close() ends everything; later calls reject with AgentClosedError.
import { AgentClosedError, ModelNotLoadedError } from '../errors/index.js';
import { readsCalls, type ChatModel, type EngineName, type GenerateOptions, type ModelInfo, type ModelRequest, type ModelResponse, type TemplateMismatch } from '../shared/model.js';
import { modelIdOf, type ModelOptions } from './model-session.js';
import { untilAborted } from '../shared/until-aborted.js';

/** A model loaded and running (in its worker): ModelSession, or an in-thread one in tests. */
export interface LoadedModel extends ChatModel {
  restart(changes?: Partial<ModelOptions>): Promise<ModelInfo>;
  /** End its worker; what was pending rejects with `reason`. */
  close(reason: Error): void;
}

/**
 * How a model is started: `started` once its worker is up, `loaded` once the
 * model is; `signal` cancels it. (createAgent's starts a worker; tests may
 * pass one that runs in their thread.)
 */
export type ModelStarter = (options: ModelOptions, signal: AbortSignal, warn?: (warning: ModelWarning) => void) => { started: Promise<void>; loaded: Promise<LoadedModel> };

export type ModelState = 'idle' | 'loading' | 'ready' | 'failed';

type Slot =
  | { state: 'idle' }
  | { state: 'loading'; loaded: Promise<LoadedModel>; stop: AbortController; options: ModelOptions }
  | { state: 'ready'; session: LoadedModel; options: ModelOptions }
  | { state: 'failed'; error: unknown; options: ModelOptions };

export interface ModelStateChange {
  state: ModelState;
  /** The model loading, ready or failed. */
  modelId?: string;
  /** Why the load failed. */
  error?: unknown;
}

/**
 * Something about the loaded model the app should know, though it runs:
 * `'template-mismatch'`, its mlc-chat-config.json names another conversation
 * template than tabagent's model table (see TemplateMismatch);
 * `'no-tool-format'`, a GGUF's template shows no tool-call format and no
 * `family` was passed, so chats with tools are refused; `'not-shared'`,
 * `shared` asked for a model every tab shares, but it runs in a worker of
 * this tab's own (no SharedWorker here, a worker script on another origin, a
 * model from a Blob).
 */
export type ModelWarning =
  | ({ type: 'template-mismatch'; modelId: string } & TemplateMismatch)
  /** A GGUF whose chat template writes no call markup, loaded without `family`: it runs chats without tools only. */
  | { type: 'no-tool-format'; modelId: string; message: string }
  /** `shared` asked for a model every tab shares, but it runs in a worker of this tab's own; `message` says why. */
  | { type: 'not-shared'; modelId: string; message: string }
  /**
   * A fallback chain passed over this model: its engine cannot run here
   * (`error`: EngineUnavailableError, WebGPUUnavailableError or
   * ShaderF16UnsupportedError, found before anything was downloaded).
   */
  | { type: 'engine-skipped'; modelId: string; engine: EngineName; error: Error; message: string };

export class AgentModel implements ChatModel {
  #slot: Slot = { state: 'idle' };
  #closed = false;
  /** Told of every change of state (the agent's `model-state` event). */
  onState: (change: ModelStateChange) => void = () => undefined;
  /** Told once per load of a model that needs a word (the agent's `model-warning` event). */
  onWarning: (warning: ModelWarning) => void = () => undefined;

  constructor(private readonly start: ModelStarter) {}

  get state(): ModelState {
    return this.#slot.state;
  }

  /** The loaded model; throws ModelNotLoadedError (or the load's error) when there is none. */
  get info(): ModelInfo {
    const slot = this.#slot;
    if (slot.state === 'ready') return slot.session.info;
    if (slot.state === 'failed') throw slot.error;
    throw new ModelNotLoadedError(slot.state === 'loading' ? 'The model is still loading: await agent.ready first.' : undefined);
  }

  /** Resolves once a model is ready: at once, after the load in flight, or never (rejects) when there is none. */
  async ready(signal?: AbortSignal): Promise<ModelInfo> {
    for (;;) {
      if (this.#closed) throw new AgentClosedError();
      const slot = this.#slot;
      if (slot.state === 'ready') return slot.session.info;
      if (slot.state === 'failed') throw slot.error;
      if (slot.state === 'idle') throw new ModelNotLoadedError();
      // Settled either way, then look again: a newer load may have replaced it.
      await untilAborted(slot.loaded.catch(() => undefined), signal);
    }
  }

  async generate(request: ModelRequest, options?: GenerateOptions): Promise<ModelResponse> {
    await this.ready(options?.signal);
    return (this.#slot as Extract<Slot, { state: 'ready' }>).session.generate(request, options);
  }

  /**
   * Load `options.model` in a new worker, in place of whatever was there.
   * `started` settles when the worker is up (WorkerStartError otherwise),
   * `loaded` when the model is (or with why not; `signal` cancels it).
   */
  load(options: ModelOptions, signal?: AbortSignal): { started: Promise<void>; loaded: Promise<ModelInfo> } {
    if (this.#closed) {
      const closed = Promise.reject(new AgentClosedError());
      return { started: closed, loaded: closed };
    }
    this.#end();
    const stop = new AbortController();
    const cancel = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    // A chain's skips are told as they happen, while this load is the slot's.
    const warn = (warning: ModelWarning) => {
      if (this.#slot.state === 'loading' && this.#slot.stop === stop) this.onWarning(warning);
    };
    const { started, loaded } = this.start(options, cancel, warn);
    const slot: Slot = { state: 'loading', loaded, stop, options };
    this.#set(slot, { modelId: idOf(options) });
    const settled = loaded.then(
      (session) => {
        if (this.#slot !== slot) {
          session.close(replaced());
          throw new ModelNotLoadedError('Another load replaced this one.');
        }
        this.#set({ state: 'ready', session, options }, { modelId: session.info.modelId });
        this.#warn(session.info);
        return session.info;
      },
      (error: unknown) => {
        if (this.#slot === slot) {
          if (cancel.aborted) this.#set({ state: 'idle' }, {});
          else this.#set({ state: 'failed', error, options }, { modelId: idOf(options), error });
        }
        throw error;
      },
    );
    // Whoever asks hears of a failure; the slot keeps it either way.
    settled.catch(() => undefined);
    started.catch(() => undefined);
    return { started, loaded: settled };
  }

  /**
   * A new worker for the model (after WorkerCrashedError or DeviceLostError),
   * or another model: `changes` are applied over the last load's options.
   */
  async restart(changes: Partial<ModelOptions> = {}): Promise<ModelInfo> {
    if (this.#closed) throw new AgentClosedError();
    // A load in flight ends first: the restart then restarts what it gave.
    while (this.#slot.state === 'loading') await this.#slot.loaded.catch(() => undefined);
    if (this.#closed) throw new AgentClosedError();
    const slot = this.#slot;
    if (slot.state === 'ready') return this.#restartReady(slot, changes);
    if (slot.state === 'idle') throw new ModelNotLoadedError();
    return this.load({ ...slot.options, ...changes }).loaded;
  }

  async #restartReady(slot: Extract<Slot, { state: 'ready' }>, changes: Partial<ModelOptions>): Promise<ModelInfo> {
    // The session applies `changes` over its options in call order; so does the
    // slot, so that a restart after a failed one asks for the same model.
    const options = (slot.options = { ...slot.options, ...changes });
    const before = slot.session.info;
    try {
      const info = await slot.session.restart(changes);
      // A new worker for the same model has been warned of; another model has not.
      if (info.templateMismatch?.message !== before.templateMismatch?.message) this.#warn(info);
      return info;
    } catch (error) {
      // Still this model's slot: the restart failed (rather than being stopped by
      // close() or a new load), and left no worker. The model is gone, not ready.
      if (this.#slot === slot && !this.#closed) {
        slot.session.close(error as Error);
        this.#set({ state: 'failed', error, options }, { modelId: idOf(options), error });
      }
      throw error;
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#end(true);
  }

  /** End what is there: a load in flight is cancelled, a ready model's worker stops. `closing`: the agent closes (else another load replaces it). */
  #end(closing = false): void {
    const slot = this.#slot;
    const reason = closing ? new AgentClosedError() : replaced();
    if (slot.state === 'loading') slot.stop.abort(reason);
    if (slot.state === 'ready') slot.session.close(reason);
  }

  #warn(info: ModelInfo): void {
    if (info.notShared) this.onWarning({ type: 'not-shared', modelId: info.modelId, message: `${info.modelId} runs in a worker of this tab's own, not shared with other tabs: ${info.notShared}` });
    if (info.templateMismatch) this.onWarning({ type: 'template-mismatch', modelId: info.modelId, ...info.templateMismatch });
    if (!readsCalls(info)) {
      this.onWarning({ type: 'no-tool-format', modelId: info.modelId, message: `${info.modelId}'s chat template shows no tool-call format tabagent reads: chats without tools run; pass family to give it tools` });
    }
  }

  #set(slot: Slot, detail: Omit<ModelStateChange, 'state'>): void {
    this.#slot = slot;
    this.onState({ state: slot.state, ...detail });
  }
}

/** Why a model's work stops when another load takes its place: an abort, not a failure. */
function replaced(): DOMException {
  return new DOMException('Another load replaced this model.', 'AbortError');
}

function idOf(options: ModelOptions): string | undefined {
  try {
    return modelIdOf(options);
  } catch {
    // A bad option fails the load with its own error; the event just names no model.
    return undefined;
  }
}

