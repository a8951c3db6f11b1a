// Which starter runs `options.model`, and the fallback chain over them: a
// server model and Chrome's built-in model run on the page (each loaded on
// demand, so the page entry carries neither), every other model in a worker.
//
// How a chain settles:
// - Its links start one after another; the first that loads is the model.
// - A link this device cannot run (EngineUnavailableError,
//   WebGPUUnavailableError, ShaderF16UnsupportedError: all thrown before
//   anything is downloaded) is skipped with an 'engine-skipped' warning, and
//   the next starts. Any other failure ends the chain with its error, as does
//   the last link's.
// - `started` resolves once a link has started (a worker is up, or a page
//   engine needs none); it rejects with the chain's error if none did.
// - The signal stops the link in flight; no later link starts.
import { isEngineUnavailableError, isShaderF16UnsupportedError, isWebGPUUnavailableError } from '../errors/index.js';
import type { EngineName } from '../shared/model.js';
import type { LoadedModel, ModelStarter, ModelWarning } from './agent-model.js';
import { namesGguf } from './gguf-name.js';
import type { WorkerLauncher } from './open-worker.js';
import { ModelSession, modelIdOf, type ModelOptions } from './model-session.js';
import { CHROME_BUILTIN } from './prompt-api/chrome-builtin.js';
import { isServerModel } from './server/language-model.js';

type Started = { started: Promise<void>; loaded: Promise<LoadedModel> };

export function startModel(options: ModelOptions, launch: WorkerLauncher, signal: AbortSignal, warn?: (warning: ModelWarning) => void): Started {
  return startModelWith((worker, cancel) => ModelSession.begin(worker, launch, cancel))(options, signal, warn);
}

/** The dispatcher and chain over a given way of starting worker models (tests start them in their own thread). */
export function startModelWith(startWorkerModel: ModelStarter): ModelStarter {
  const startOne = (options: ModelOptions, signal: AbortSignal): Started => {
    const { model } = options;
    if (isServerModel(model)) return later(import('./server/server-model.js').then((m) => m.startServerModel), options, signal);
    if (model === CHROME_BUILTIN) return later(import('./prompt-api/prompt-api-model.js').then((m) => m.startPromptApiModel), options, signal);
    return startWorkerModel(options, signal);
  };
  return (options, signal, warn = () => undefined) => {
    const { fallback } = options;
    // One GGUF behind a WebLLM model stays in the worker, which tries it without a second start.
    if (fallback === undefined || (!Array.isArray(fallback) && namesGguf(fallback))) return startOne(options, signal);
    const links = [options.model, ...(Array.isArray(fallback) ? fallback : [fallback])].map((model) => ({ ...options, model, fallback: undefined }));
    return startChain(links, (link) => startOne(link, signal), signal, warn);
  };
}

/** A starter loaded on demand. */
function later(starter: Promise<(options: ModelOptions, signal: AbortSignal) => Started>, options: ModelOptions, signal: AbortSignal): Started {
  const begun = starter.then((start) => start(options, signal));
  return { started: begun.then((b) => b.started), loaded: begun.then((b) => b.loaded) };
}

function startChain(links: ModelOptions[], start: (link: ModelOptions) => Started, signal: AbortSignal, warn: (warning: ModelWarning) => void): Started {
  let markStarted!: () => void;
  let failStart!: (error: unknown) => void;
  const started = new Promise<void>((resolve, reject) => {
    markStarted = resolve;
    failStart = reject;
  });
  const loaded = (async () => {
    for (const [at, link] of links.entries()) {
      signal.throwIfAborted();
      const begun = start(link);
      begun.started.then(markStarted, () => undefined);
      try {
        return await begun.loaded;
      } catch (error) {
        if (signal.aborted || at === links.length - 1 || !cannotRunHere(error)) throw error;
        warn(skipped(link, error));
      }
    }
    throw new Error('unreachable: a chain has at least one link');
  })();
  // Cancelled is no failure to start, as for a single model: `loaded` tells of it.
  loaded.catch((error: unknown) => (signal.aborted && error === signal.reason ? markStarted() : failStart(error)));
  return { started, loaded };
}

/** The engine cannot run on this device or browser, found before anything was downloaded. */
function cannotRunHere(error: unknown): boolean {
  return isEngineUnavailableError(error) || isWebGPUUnavailableError(error) || isShaderF16UnsupportedError(error);
}

function skipped(link: ModelOptions, error: unknown): ModelWarning {
  const engine: EngineName = isEngineUnavailableError(error) ? error.engine : 'webllm';
  const modelId = modelIdOf(link);
  return { type: 'engine-skipped', modelId, engine, error: error as Error, message: `${modelId} (${engine}) was skipped: ${(error as Error).message}` };
}
