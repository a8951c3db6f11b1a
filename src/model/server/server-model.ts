// A server model on the page, through any AI SDK provider: no worker, no
// download. The app's provider object (and its API key) stays in memory;
// nothing of it is stored.
import { InvalidOptionsError } from '../../errors/index.js';
import type { GenerateOptions, ModelInfo, ModelRequest, ModelResponse } from '../../shared/model.js';
import type { LoadedModel } from '../agent-model.js';
import type { ModelOptions } from '../model-session.js';
import { callOptions } from './call-options.js';
import type { ServerLanguageModel } from './language-model.js';
import { providerError } from './provider-error.js';
import { readStream } from './read-stream.js';

/**
 * What the chat fits its history into. The provider does not say its
 * model's window; most served today hold 128k tokens or more, and a prompt
 * past it fails with the provider's own error (a ModelError).
 */
export const SERVER_CONTEXT_WINDOW = 128_000;

export class ServerModel implements LoadedModel {
  readonly info: ModelInfo;

  constructor(private readonly model: ServerLanguageModel) {
    this.info = { modelId: model.modelId, template: model.provider, engine: 'server', host: 'page', contextWindow: SERVER_CONTEXT_WINDOW, grammarByDefault: false };
  }

  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    const { signal } = options;
    signal?.throwIfAborted();
    let stream;
    try {
      ({ stream } = await this.model.doStream(callOptions(request, signal)));
    } catch (error) {
      if (signal?.aborted) return { raw: '', foreign: true, text: '', reasoning: '', calls: [], finishReason: 'abort', usage: { promptTokens: 0, completionTokens: 0 } };
      throw providerError(error);
    }
    return readStream(stream, options);
  }

  /** Nothing to restart: the same provider answers. Another model is loaded with `agent.load`. */
  async restart(changes: Partial<ModelOptions> = {}): Promise<ModelInfo> {
    if (changes.model !== undefined && changes.model !== this.model) throw new InvalidOptionsError('model', 'a server model restarts as itself; load another model with agent.load');
    return this.info;
  }

  close(): void {}
}

/** A server model is ready at once: nothing to start or download. */
export function startServerModel(options: ModelOptions, signal: AbortSignal): { started: Promise<void>; loaded: Promise<LoadedModel> } {
  const loaded = signal.aborted ? Promise.reject(signal.reason) : Promise.resolve(new ServerModel(options.model as ServerLanguageModel));
  return { started: Promise.resolve(), loaded };
}
