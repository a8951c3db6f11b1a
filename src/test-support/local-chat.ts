// Chats whose model side runs in this thread: the real engine host, codec,
// scanner and fake engine, without a worker. For unit tests.
import { Agent } from '../agent/agent.js';
import { AgentModel, type LoadedModel, type ModelStarter } from '../model/agent-model.js';
import type { ModelOptions } from '../model/model-session.js';
import type { ChatModel, ModelRequest } from '../shared/model.js';
import { Chat } from '../chat/chat.js';
import { chatSettings, type ChatOptions } from '../chat/chat-options.js';
import type { ChatMessage, ToolResultRecord } from '../shared/chat.js';
import { WorkerModel } from '../model/worker-model.js';
import { GenerationClient } from '../rpc/generation-channel.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import type { ChatStore, CommitMeta } from '../store/records.js';
import { TabSync } from '../store/tab-sync.js';
import { fakeModel, type FakeModel } from '../testing/fake-model.js';
import { FAKE_SPEC } from '../model/scripted-model.js';
import type { FakeModelOptions, FakeScript } from '../testing/types.js';
import { EngineHost } from '../worker/engine-host.js';

export interface Commit {
  messages: ChatMessage[];
  answers: ToolResultRecord[];
}

/** A memory store that records every append. */
export class RecordingStore extends MemoryChatStore {
  readonly commits: Commit[] = [];
  override async append(chatId: string, messages: ChatMessage[], meta: CommitMeta): Promise<number> {
    const count = await super.append(chatId, messages, meta);
    this.commits.push({ messages, answers: meta.answers });
    return count;
  }
}

export async function localModel(fake: FakeModel): Promise<WorkerModel> {
  const host = new EngineHost();
  const { port1, port2 } = new MessageChannel();
  // Node keeps a process alive while a port listens.
  for (const port of [port1, port2]) (port as unknown as { unref?: () => void }).unref?.();
  host.connect(port2);
  const { respond, record, firstTurn, ...spec } = fake[FAKE_SPEC];
  const info = await host.load({ kind: 'fake', ...spec, recordRequests: record !== undefined, firstTurn: firstTurn() }, undefined, respond);
  return new WorkerModel({ generations: new GenerationClient(port1), track: (p) => p }, info, record);
}

export async function localChat(script: FakeScript, options: ChatOptions = {}, fakeOptions: FakeModelOptions = {}) {
  const fake = fakeModel(script, fakeOptions);
  const model = await localModel(fake);
  const store = new RecordingStore();
  const { tools, settings, hooks, context, controls } = chatSettings(options);
  await store.create({ id: 'chat-1', title: '', createdAt: 0, updatedAt: 0, messageCount: 0, version: 0, settings, tools: [], answers: [] });
  const chat = new Chat({ id: 'chat-1', title: '', version: 0, model, tools, settings, hooks, context, controls, store, sync: new TabSync('test', false) });
  return { chat, fake, store, commits: store.commits };
}

/**
 * An agent on a given store (memory by default), with the fake model in this
 * thread. `sync`: a tab's, shared with another agent's (two tabs).
 */
export async function localAgent(script: FakeScript, store: ChatStore = new MemoryChatStore(), fakeOptions: FakeModelOptions = {}, sync = new TabSync(`test-${Math.random()}`, false)) {
  const fake = fakeModel(script, fakeOptions);
  /** Every request the page sent the model, as the worker receives it (before any rendering). */
  const requests: ModelRequest[] = [];
  const slot = new AgentModel(inThreadStarter(async (options) => recording(await localModel(typeof options.model === 'object' && FAKE_SPEC in options.model ? (options.model as FakeModel) : fake), requests)));
  await slot.load({ model: fake }).loaded;
  const agent = new Agent(slot, {}, { kind: store.kind }, store, sync);
  return { agent, fake, store, requests };
}

/** `model`, keeping each request it is given in `requests`. */
export function recording(model: ChatModel, requests: ModelRequest[]): ChatModel {
  return {
    get info() {
      return model.info;
    },
    generate: (request, options) => {
      requests.push(request);
      return model.generate(request, options);
    },
  };
}

/** Starts models in this thread (no worker): `make` loads one; a restart makes it again. */
export function inThreadStarter(make: (options: ModelOptions) => Promise<ChatModel>): ModelStarter {
  return (options, signal) => ({
    started: Promise.resolve(),
    loaded: (async (): Promise<LoadedModel> => {
      let model = await make(options);
      signal.throwIfAborted();
      return {
        get info() {
          return model.info;
        },
        generate: (request, generateOptions) => model.generate(request, generateOptions),
        restart: async () => (model = await make(options)).info,
        close: () => undefined,
      };
    })(),
  });
}
