// A WebLLM model as an app names one: a prebuilt id, or a self-hosted model.
import { InvalidOptionsError } from '../errors/index.js';
import type { WebLLMSource } from '../webllm/app-config.js';

/** A self-hosted WebLLM model: `{ id, appConfig }`, or `{ id, modelUrl, modelLib? }`. */
export type WebLLMModel = Omit<WebLLMSource, 'modelId'> & { id: string };

/** What the worker needs to find `model`'s files; InvalidOptionsError unless it names a WebLLM model. */
export function webllmSource(model: unknown): WebLLMSource {
  if (typeof model === 'string' && model.trim()) return { modelId: model };
  if (typeof model === 'object' && model !== null && typeof (model as WebLLMModel).id === 'string') {
    const { id, ...rest } = model as WebLLMModel;
    return { modelId: id, ...rest };
  }
  throw new InvalidOptionsError('model', 'must be a WebLLM model id, { id, appConfig | modelUrl }, or fakeModel(...)');
}
