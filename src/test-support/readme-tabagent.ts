// `tabagent` as README examples see it when src/readme.test.ts runs them
// (vitest.config.ts aliases the bare specifier here): the real package, but
// `createAgent` runs the example's fake model in this thread (the real engine
// host, codec, grammar and fake engine; no worker), and the model cache
// answers without a worker. Chats go to IndexedDB (fake-indexeddb) unless
// `storage: false`, as in a page.
import 'fake-indexeddb/auto';
import { Agent } from '../agent/agent.js';
import type { AgentOptions } from '../agent/create-agent.js';
import type { LoadProgress } from '../shared/model.js';
import type { WebLLMModel } from '../model/webllm-model.js';
import { ggufModelId, namesGguf, type GgufModel } from '../model/gguf-name.js';
import { FAKE_SPEC, scriptFor, type FakeSpec } from '../model/scripted-model.js';
import { WorkerModel } from '../model/worker-model.js';
import { GenerationClient } from '../rpc/generation-channel.js';
import { IdbChatStore } from '../store/idb-chat-store.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import type { StorageInfo } from '../store/open-store.js';
import type { ChatStore } from '../store/records.js';
import { DEFAULT_DB_NAME } from '../store/schema.js';
import { TabSync } from '../store/tab-sync.js';
import { fakeModel, type FakeModel } from '../testing/fake-model.js';
import { EngineHost } from '../worker/engine-host.js';
import { inThreadStarter } from './local-chat.js';
import { AgentModel } from '../model/agent-model.js';
import { startModelWith } from '../model/start-model.js';
import { noteAgent, noteFake, readmeRun } from './readme-model.js';

export * from '../index.js';

/** `createAgent`, on the example's fake models: the one it was given, or the next one it registered (also for `agent.load`). */
export async function createAgent(options: AgentOptions = {}): Promise<Agent> {
  const { storage, model, signal, ...defaults } = options;
  // The fake is picked once per load; a restart runs the same one again.
  // Server models and fallback chains as createAgent dispatches them; worker models are fakes in this thread.
  const slot = new AgentModel(
    startModelWith((load, cancel) => {
      const fake = fakeFor(load.model);
      return inThreadStarter(() => inThread(fake, load))(load, cancel);
    }),
  );
  if (model !== undefined) slot.load({ ...defaults, model }, signal);
  const { store, info } = await openStore(storage);
  const agent = new Agent(slot, defaults, info, store, new TabSync(`${readmeRun().namespace}:${info.dbName ?? 'memory'}`, store.kind === 'indexeddb'));
  noteAgent(agent);
  return agent;
}

/** What runs for `model`: its own fake, the page's (useFakeScript), or for a GGUF, which Node has no engine for, a fake with no outputs. */
export function fakeFor(model: unknown): FakeSpec {
  if (typeof model === 'object' && model !== null && FAKE_SPEC in model) noteFake(model as FakeModel);
  const spec = scriptFor(model);
  if (spec) return spec;
  if (namesGguf(model)) return fakeModel([], { modelId: ggufModelId(model as GgufModel) })[FAKE_SPEC];
  throw new Error(`createAgent({ model: ${JSON.stringify(model)} }) in a README example, but no fake script is registered: call useFakeScript(...) in its hidden part first`);
}

export async function isModelCached(_model: string | WebLLMModel | GgufModel): Promise<boolean> {
  return false;
}

export async function deleteCachedModel(_model: string | WebLLMModel | GgufModel): Promise<void> {}

/** The fake's engine host in this thread, loaded as the worker loads it (progress reports included). */
export async function inThread(fake: FakeSpec, options: Omit<AgentOptions, 'model'>): Promise<WorkerModel> {
  const host = new EngineHost();
  const { port1, port2 } = new MessageChannel();
  // Node keeps a process alive while a port listens.
  for (const port of [port1, port2]) (port as unknown as { unref?: () => void }).unref?.();
  host.connect(port2);
  const { respond, record, firstTurn, ...spec } = fake;
  const onProgress = options.onProgress as ((p: LoadProgress) => void) | undefined;
  const info = await host.load(
    { kind: 'fake', ...spec, family: options.family ?? spec.family, grammar: options.grammar ?? spec.grammar, recordRequests: record !== undefined, firstTurn: firstTurn() },
    onProgress,
    respond,
  );
  return new WorkerModel({ generations: new GenerationClient(port1), track: (p) => p }, info, record);
}

async function openStore(storage: AgentOptions['storage']): Promise<{ store: ChatStore; info: StorageInfo }> {
  if (storage === false) return { store: new MemoryChatStore(), info: { kind: 'memory', reason: 'storage: false' } };
  const dbName = storage?.dbName ?? DEFAULT_DB_NAME;
  // Node has no navigator.storage, so `persisted` stays unknown, as in a browser without it.
  return { store: await IdbChatStore.open(`${readmeRun().namespace}:${dbName}`, storage?.blockedTimeoutMs), info: { kind: 'indexeddb', dbName } };
}
