// Starts the agent on the real model when it can run here without asking,
// else on the fake model, so the app always works; `notice` says why when it
// fell back.
import { createAgent, isModelCached, isModelLoadError, isWebGPUUnavailableError, type Agent, type LoadProgress, type StorageOptions } from '../../../src/index.js';
import { fakeModel } from '../../../src/testing/index.js';
import { pwaScript } from './fake-script.js';
import type { ModelChoice } from './model-choice.js';

/** Chats in this app's own database; `persist` asks the browser not to evict it (or the model). */
const STORAGE: StorageOptions = { dbName: 'tabagent-pwa', persist: true };
/** Every tab of the app shares one model: a second tab answers without loading it again. */
const SHARED = true;

export async function startAgent(choice: ModelChoice, onProgress: (progress: LoadProgress) => void): Promise<{ agent: Agent; notice?: string }> {
  let notice: string;
  if (choice.engine === 'fake') {
    notice = `No WebGPU (${choice.noGpu}), and this browser cannot run the CPU engine (wllama needs WebAssembly memory64 and JSPI), so no real model can run here. The assistant is a scripted fake model instead.`;
  } else if (choice.engine === 'wllama' && !choice.downloaded) {
    // Hundreds of megabytes on a device that may be a phone: downloaded when the person says so.
    notice = navigator.onLine
      ? `No WebGPU (${choice.noGpu}), so the assistant runs ${choice.modelId} on the CPU once you download it. Until then it is a scripted fake model.`
      : `No WebGPU (${choice.noGpu}), and you are offline with no CPU model downloaded yet. The assistant is a scripted fake model until you download ${choice.modelId} online.`;
  } else if (choice.engine === 'webllm' && !navigator.onLine && !(await isModelCached(choice.modelId).catch(() => false))) {
    // A download would only fail, after a wait: say so at once.
    notice = `You are offline and ${choice.modelId} has not been downloaded yet. Using a scripted fake model until you are back online.`;
  } else {
    // The store opens at once; the model goes on loading.
    const agent = await createAgent({ model: choice.modelId, storage: STORAGE, shared: SHARED, onProgress });
    try {
      await agent.ready;
      return { agent };
    } catch (error) {
      notice = `Could not load ${choice.modelId}: ${whyNot(error)}. Using a scripted fake model instead.`;
      await useFake(agent);
      return { agent, notice };
    }
  }
  const agent = await createAgent({ model: fake(), storage: STORAGE, shared: SHARED });
  await agent.ready;
  return { agent, notice };
}

/** What answers when no real model can: the notes tools still work. */
export function useFake(agent: Agent): Promise<unknown> {
  return agent.load(fake(), { onProgress: undefined });
}

const fake = () => fakeModel(pwaScript, { tokenDelayMs: 10 });

/** The reason alone: the error's own message would say "Could not load" a second time. */
export function whyNot(error: unknown): string {
  const reason = isModelLoadError(error) ? error.reason : isWebGPUUnavailableError(error) ? `no usable WebGPU (${error.reason})` : String((error as Error)?.message ?? error);
  return /failed to fetch|networkerror|load failed/i.test(reason) ? 'the network request failed' : reason.replace(/[.\s]+$/, '');
}
