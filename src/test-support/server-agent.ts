// Agents whose model is picked by the real dispatcher (start-model.ts), for
// server models and fallback chains in unit tests: worker models start in
// in-thread "workers" serving `host`.
import { Agent } from '../agent/agent.js';
import { AgentModel, type ModelWarning } from '../model/agent-model.js';
import type { ModelOptions } from '../model/model-session.js';
import { startModel } from '../model/start-model.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import type { ChatStore } from '../store/records.js';
import { TabSync } from '../store/tab-sync.js';
import { EngineHost } from '../worker/engine-host.js';
import { inThreadWorkers } from './in-thread-workers.js';

export async function dispatchedAgent(options: ModelOptions, store: ChatStore = new MemoryChatStore(), host: () => object = () => new EngineHost(), signal?: AbortSignal) {
  const workers = inThreadWorkers(host);
  const warnings: ModelWarning[] = [];
  const slot = new AgentModel((load, signal, warn) => startModel(load, workers.launch, signal, warn));
  const agent = new Agent(slot, {}, { kind: store.kind }, store, new TabSync(`test-${Math.random()}`, false));
  agent.on('model-warning', (warning) => warnings.push(warning));
  const loaded = slot.load(options, signal).loaded;
  return { agent, loaded, warnings, workers };
}
