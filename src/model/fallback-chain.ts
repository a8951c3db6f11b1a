// A fallback chain: a starter over starters, on the page.
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
// (It imports nothing but types, so loading it on demand loads nothing else.)
import type { ModelStarter, ModelWarning } from './agent-model.js';
import type { ModelOptions } from './model-session.js';

type Started = ReturnType<ModelStarter>;

/** `skipped`: the warning for a link that failed because this device cannot run it; undefined for any other failure. */
export function startChain(links: ModelOptions[], start: (link: ModelOptions) => Started, signal: AbortSignal, skipped: (link: ModelOptions, error: unknown) => ModelWarning | undefined, warn: (warning: ModelWarning) => void): Started {
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
        const warning = signal.aborted || at === links.length - 1 ? undefined : skipped(link, error);
        if (!warning) throw error;
        warn(warning);
      }
    }
    throw new Error('unreachable: a chain has at least one link');
  })();
  // Cancelled is no failure to start, as for a single model: `loaded` tells of it.
  loaded.catch((error: unknown) => (signal.aborted && error === signal.reason ? markStarted() : failStart(error)));
  return { started, loaded };
}
