// The provider: tabagent's models for the AI SDK, in a worker of the
// provider's own (createTabAgent), or on an agent's model (languageModelOf).
import { NoSuchModelError, type ProviderV4 } from '@ai-sdk/provider';
import { InvalidOptionsError, ModelNotLoadedError } from '../errors/index.js';
import type { Agent } from '../agent/agent.js';
import { AgentModel, type ModelStarter } from '../model/agent-model.js';
import { modelIdOf, type ModelOptions } from '../model/model-session.js';
import type { ModelInfo } from '../shared/model.js';
import { TabAgentLanguageModel, type ModelSource } from './language-model.js';
import { OwnRaws } from './own-raws.js';

/** A model, as createAgent takes it: a WebLLM id or self-hosted model, a GGUF model (curated id or `{ gguf }`), or `fakeModel(...)`. */
export type TabAgentModel = ModelOptions['model'];

/** Everything of createAgent's model options but the model: `onProgress`, `fallback`, `family`, `grammar`, `workerUrl`, … */
export type TabAgentProviderOptions = Omit<ModelOptions, 'model'>;

export interface TabAgentProvider extends ProviderV4 {
  (model: TabAgentModel): TabAgentLanguageModel;
  /**
   * A language model for the AI SDK. It loads on its first call (or
   * `model.ready()`), in the provider's worker, in place of the model loaded
   * before: one model at a time, as an agent holds one.
   */
  languageModel(model: TabAgentModel): TabAgentLanguageModel;
  /** End the provider's worker: calls in flight and later ones reject with AgentClosedError. */
  close(): void;
}

/** createTabAgent for a way of starting models (the package's worker; tests start them in their thread). */
export function createTabAgentWith(start: ModelStarter): (options?: TabAgentProviderOptions) => TabAgentProvider {
  return (options = {}) => createTabAgent(options, start);
}

function createTabAgent(options: TabAgentProviderOptions, start: ModelStarter): TabAgentProvider {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionsError('options', 'createTabAgent takes an options object');
  const slot = new AgentModel(start);
  let current: TabAgentModel | undefined;
  const source = (model: TabAgentModel): ModelSource => {
    const modelId = modelIdOf({ model }); // a model option that names no model throws here, at once
    return {
      modelId,
      async ready(signal) {
        // Another model, or this one after a failed or cancelled load: load it in place of what is there.
        if (current !== model || slot.state === 'failed' || slot.state === 'idle') {
          current = model;
          slot.load({ ...options, model });
        }
        const info = await slot.ready(signal);
        // A call to another model replaced this one while it loaded.
        if (current !== model) throw new ModelNotLoadedError(`Another model (${slot.info.modelId}) took this provider's worker.`);
        return info;
      },
      generate: (request, generation) => slot.generate(request, generation),
    };
  };
  const raws = new OwnRaws();
  const languageModel = (model: TabAgentModel) => new TabAgentLanguageModel(source(model), raws);
  const provider = (model: TabAgentModel) => languageModel(model);
  return Object.assign(provider, {
    specificationVersion: 'v4' as const,
    languageModel,
    embeddingModel(modelId: string): never {
      throw new NoSuchModelError({ modelId, modelType: 'embeddingModel', message: 'tabagent has language models only' });
    },
    imageModel(modelId: string): never {
      throw new NoSuchModelError({ modelId, modelType: 'imageModel', message: 'tabagent has language models only' });
    },
    close: () => slot.close(),
  });
}

/**
 * A language model for the AI SDK on the model an agent runs (`createAgent`):
 * the same worker, the same KV cache and the same loading, beside the agent's
 * own chats. It waits for a load in flight; `agent.load` switches it too.
 */
export function languageModelOf(agent: Agent): TabAgentLanguageModel {
  // The agent's model slot: private to Agent's API, read here (TypeScript's element access) rather than
  // through a seam of its own, which would weigh on every page's entry for this entry alone.
  const slot = (agent as Agent | undefined)?.['session'];
  if (!(slot instanceof AgentModel)) throw new InvalidOptionsError('agent', 'must be an agent made by createAgent');
  let raws = agentRaws.get(slot);
  if (!raws) agentRaws.set(slot, (raws = new OwnRaws()));
  return new TabAgentLanguageModel({
    get modelId() {
      return slot.state === 'ready' ? slot.info.modelId : 'tabagent';
    },
    ready: (signal?: AbortSignal): Promise<ModelInfo> => slot.ready(signal),
    generate: (request, generation) => slot.generate(request, generation),
  }, raws);
}

/** The raws each agent's model emitted, shared by the language models made on it. */
const agentRaws = new WeakMap<AgentModel, OwnRaws>();
