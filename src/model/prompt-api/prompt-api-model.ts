// Chrome's built-in model (the Prompt API) as a model starter, on the page:
// the API exists only there, never in a worker. Loaded on demand, so the
// page entry carries none of it.
//
// How a start settles:
// - No `LanguageModel` on this page, or its availability 'unavailable':
//   `started` rejects with EngineUnavailableError before anything downloads
//   (a fallback chain skips it and says why).
// - 'downloadable'/'downloading': the browser downloads its model; its
//   `downloadprogress` goes out as LoadProgress while the model is 'loading'.
// - `loaded` resolves once a first session exists (it tells the context
//   window and keeps the model in memory); `signal` cancels the download.
import { EngineUnavailableError, InvalidOptionsError } from '../../errors/index.js';
import type { LoadProgress, ModelInfo } from '../../shared/model.js';
import type { LoadedModel, ModelStarter } from '../agent-model.js';
import type { ModelOptions } from '../model-session.js';
import { CHROME_BUILTIN, isChromeBuiltin } from './chrome-builtin.js';
import { createError } from './dom-errors.js';
import { pageLanguageModel, type LanguageModelApi, type LanguageModelSession } from './language-model.js';
import { PromptApiChat } from './prompt-api-chat.js';

/** Start Chrome's built-in model, through the page's own `LanguageModel`. */
export const startPromptApiModel: ModelStarter = (options, signal) => promptApiStarter(pageLanguageModel)(options, signal);

/** A starter over the `LanguageModel` that `find` gives (the page's; a stand-in in tests). */
export function promptApiStarter(find: () => LanguageModelApi | undefined): ModelStarter {
  return (options, signal) => {
    const started = available(find);
    const loaded = started.then((api) => load(api, options, signal));
    return { started: started.then(() => undefined), loaded };
  };
}

async function available(find: () => LanguageModelApi | undefined): Promise<LanguageModelApi> {
  const api = find();
  if (!api) throw new EngineUnavailableError('prompt-api', CHROME_BUILTIN, 'this browser has no Prompt API (LanguageModel) on this page');
  let availability: string;
  try {
    availability = await api.availability();
  } catch (error) {
    throw createError(error);
  }
  if (availability === 'unavailable') throw new EngineUnavailableError('prompt-api', CHROME_BUILTIN, "the browser's built-in model is 'unavailable' on this device");
  return api;
}

async function load(api: LanguageModelApi, given: ModelOptions, signal: AbortSignal): Promise<LoadedModel> {
  let options = given;
  let chat = await open(api, options, signal);
  let closed: Error | undefined;
  return {
    get info() {
      return chat.model.info;
    },
    generate(request, generateOptions) {
      if (closed) return Promise.reject(closed);
      return chat.model.generate(request, generateOptions);
    },
    async restart(changes = {}) {
      if (closed) throw closed;
      // This model's own starter cannot start another engine: agent.load picks it anew.
      if (changes.model !== undefined && !isChromeBuiltin(changes.model)) {
        throw new InvalidOptionsError('model', `a restart of ${CHROME_BUILTIN} cannot switch to another model; load it with agent.load(model)`);
      }
      options = { ...options, ...changes };
      chat.end(new DOMException('The model was restarted.', 'AbortError'));
      chat = await open(api, options, new AbortController().signal);
      return chat.model.info;
    },
    close(reason) {
      closed = reason;
      chat.end(reason);
    },
  };
}

/** A first session (the download, if the browser must), and the chat model over it. */
async function open(api: LanguageModelApi, options: ModelOptions, signal: AbortSignal): Promise<{ model: PromptApiChat; end(reason: Error): void }> {
  const began = performance.now();
  const progress = (loaded: number): LoadProgress => ({
    progress: loaded,
    text: `Downloading the browser's built-in model: ${Math.round(loaded * 100)}%`,
    timeElapsedSeconds: (performance.now() - began) / 1000,
    phase: 'download',
  });
  let base: LanguageModelSession;
  try {
    base = await api.create({
      signal,
      monitor: (monitor) => monitor.addEventListener('downloadprogress', (event) => options.onProgress?.(progress(event.loaded))),
    });
  } catch (error) {
    throw createError(error);
  }
  const info: ModelInfo = {
    modelId: CHROME_BUILTIN,
    // The calls are Hermes' JSON objects ({"name", "arguments"}), in the reply JSON the constraint admits.
    family: 'hermes',
    template: 'prompt-api',
    engine: 'prompt-api',
    host: 'page',
    // The API may say +Infinity; tabagent's context budget needs a number.
    contextWindow: Number.isFinite(base.contextWindow) ? base.contextWindow : Number.MAX_SAFE_INTEGER,
    grammarByDefault: true,
  };
  const model = new PromptApiChat(api, info);
  return {
    model,
    end(reason) {
      model.close(reason);
      base.destroy();
    },
  };
}
