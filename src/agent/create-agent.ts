import { InvalidOptionsError } from '../errors/index.js';
import type { WorkerLauncher } from '../model/open-worker.js';
import { openStore, type StorageOptions } from '../store/open-store.js';
import { TabSync } from '../store/tab-sync.js';
import { Agent } from './agent.js';
import { AgentModel } from '../model/agent-model.js';
import { ModelSession, type ModelOptions } from '../model/model-session.js';
import type { ModelStarter } from '../model/agent-model.js';
import { isChromeBuiltin } from '../model/prompt-api/chrome-builtin.js';

export type { WebLLMModel } from '../model/webllm-model.js';

export interface AgentOptions extends Omit<ModelOptions, 'model'> {
  /** The model to start loading (see ModelOptions['model']); without one, load it later with `agent.load`. */
  model?: ModelOptions['model'];
  /** Cancel the load of `model`. */
  signal?: AbortSignal;
  /** Where chats are kept: IndexedDB (default, options here), or `false` for memory only. */
  storage?: false | StorageOptions;
}

export type { Agent };

/** createAgent for a way of starting the worker (the ES package's, or the script tag's). */
export function createAgentWith(launch: WorkerLauncher): (options: AgentOptions) => Promise<Agent> {
  return (options = {}) => createAgent(options, launch);
}

/**
 * Resolves once the store is open and the model's worker has started: the
 * model goes on loading (see `agent.ready`), while chats can be listed,
 * opened, exported and deleted.
 */
async function createAgent(options: AgentOptions, launch: WorkerLauncher): Promise<Agent> {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionsError('options', 'createAgent needs an options object');
  const { storage, model, signal, ...defaults } = options;
  const storing = openStore(storage);
  const slot = new AgentModel((model, signal) => (isChromeBuiltin(model.model) ? startChromeBuiltin(model, signal) : ModelSession.begin(model, launch, signal)));
  const loading = model === undefined ? undefined : slot.load({ ...defaults, model }, signal);
  try {
    const [{ store, info }] = await Promise.all([storing, loading?.started]);
    const sync = new TabSync(info.dbName ?? `memory:${crypto.randomUUID()}`, store.kind === 'indexeddb');
    return new Agent(slot, defaults, info, store, sync);
  } catch (error) {
    slot.close();
    void storing.then(({ store }) => store.close(), () => undefined);
    throw error;
  }
}

// ISSUE 37 HOOK (promptapi): the smallest way to start 'chrome-builtin' until
// the dispatcher (model/start-model.ts) picks starters; reconcile at merge.
const startChromeBuiltin: ModelStarter = (options, signal) => {
  // Loaded on demand: the page entry carries no page engine.
  const starting = import('../model/prompt-api/prompt-api-model.js').then(({ startPromptApiModel }) => startPromptApiModel(options, signal));
  return { started: starting.then((s) => s.started), loaded: starting.then((s) => s.loaded) };
};
