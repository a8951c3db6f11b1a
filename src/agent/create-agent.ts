import { InvalidOptionsError } from '../errors/index.js';
import type { WorkerLauncher } from '../model/open-worker.js';
import { openStore, type StorageOptions } from '../store/open-store.js';
import { TabSync } from '../store/tab-sync.js';
import { Agent } from './agent.js';
import { AgentModel } from '../model/agent-model.js';
import type { ModelOptions } from '../model/model-session.js';
import { startModel } from '../model/start-model.js';

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
  const slot = new AgentModel((model, signal, warn) => startModel(model, launch, signal, warn));
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
