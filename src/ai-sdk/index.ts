// tabagent/ai-sdk: tabagent's on-device models for the AI SDK (`ai`), and its
// stored chats for `useChat`. The AI SDK packages are peer dependencies of
// this entry only: `tabagent` itself loads nothing of them.
import { launchBundledWorker } from '../bundled-worker.js';
import { ModelSession } from '../model/model-session.js';
import { createTabAgentWith } from './provider.js';

/**
 * A provider of tabagent models for the AI SDK: each model runs in a worker
 * the provider starts, on WebLLM (WebGPU), wllama (GGUF on the CPU) or the
 * fake engine, one model at a time.
 */
export const createTabAgent = createTabAgentWith((model, signal) => ModelSession.begin(model, launchBundledWorker, signal));
export { languageModelOf, type TabAgentModel, type TabAgentProvider, type TabAgentProviderOptions } from './provider.js';
export { TabAgentLanguageModel } from './language-model.js';
export { TabAgentChatTransport, type TabAgentChatTransportOptions } from './chat-transport.js';
