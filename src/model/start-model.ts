// Which starter runs `options.model`: a server model and Chrome's built-in
// model run on the page (each loaded on demand, so the page entry carries
// neither), every other model in a worker. A fallback list is a chain over
// them (fallback-chain.ts, loaded when a list is given).
import { isEngineUnavailableError, isShaderF16UnsupportedError, isWebGPUUnavailableError } from '../errors/index.js';
import type { EngineName } from '../shared/model.js';
import type { ModelStarter, ModelWarning } from './agent-model.js';
import { namesGguf } from './gguf-name.js';
import type { WorkerLauncher } from './open-worker.js';
import { ModelSession, modelIdOf, type ModelOptions } from './model-session.js';
import { isChromeBuiltin } from './prompt-api/chrome-builtin.js';
import { isServerModel } from './server/language-model.js';

type Started = ReturnType<ModelStarter>;

export function startModel(options: ModelOptions, launch: WorkerLauncher, signal: AbortSignal, warn?: (warning: ModelWarning) => void): Started {
  return startModelWith((worker, cancel) => ModelSession.begin(worker, launch, cancel))(options, signal, warn);
}

/** The dispatcher and chain over a given way of starting worker models (tests start them in their own thread). */
export function startModelWith(startWorkerModel: ModelStarter): ModelStarter {
  const onPage = (model: unknown) => isServerModel(model) || isChromeBuiltin(model);
  const startOne = (options: ModelOptions, signal: AbortSignal): Started => {
    const { model } = options;
    if (isServerModel(model)) return later(import('./server/server-model.js').then((m) => m.startServerModel), options, signal);
    if (isChromeBuiltin(model)) return later(import('./prompt-api/prompt-api-model.js').then((m) => m.startPromptApiModel), options, signal);
    return startWorkerModel(options, signal);
  };
  return (options, signal, warn = () => undefined) => {
    const { fallback, model } = options;
    // One GGUF behind a worker's model stays in the worker, which tries it without a second start.
    if (fallback === undefined || (!Array.isArray(fallback) && namesGguf(fallback) && !onPage(model))) return startOne(options, signal);
    const links = [options.model, ...(Array.isArray(fallback) ? fallback : [fallback])].map((model) => ({ ...options, model, fallback: undefined }));
    return later(
      import('./fallback-chain.js').then((m) => () => m.startChain(links, (link) => startOne(link, signal), signal, skipped, warn)),
      options,
      signal,
    );
  };
}

/** A starter loaded on demand. */
function later(starter: Promise<(options: ModelOptions, signal: AbortSignal) => Started>, options: ModelOptions, signal: AbortSignal): Started {
  const begun = starter.then((start) => start(options, signal));
  return { started: begun.then((b) => b.started), loaded: begun.then((b) => b.loaded) };
}

/** The engine cannot run on this device or browser, found before anything was downloaded. */
function cannotRunHere(error: unknown): boolean {
  return isEngineUnavailableError(error) || isWebGPUUnavailableError(error) || isShaderF16UnsupportedError(error);
}

/** The warning for a link skipped because this device cannot run it; undefined for any other failure. */
function skipped(link: ModelOptions, error: unknown): ModelWarning | undefined {
  if (!cannotRunHere(error)) return undefined;
  const engine: EngineName = isEngineUnavailableError(error) ? error.engine : 'webllm';
  const modelId = modelIdOf(link);
  return { type: 'engine-skipped', modelId, engine, error: error as Error, message: `${modelId} (${engine}) was skipped: ${(error as Error).message}` };
}
