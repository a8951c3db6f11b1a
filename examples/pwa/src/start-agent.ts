// Starts the agent on the real model when it can run, else on the fake model,
// so the app always works; `notice` says why when it fell back.
import { createAgent, isModelCached, isModelLoadError, isWebGPUUnavailableError, type Agent, type LoadProgress, type StorageOptions } from '../../../src/index.js';
import { fakeModel } from '../../../src/testing/index.js';
import { pwaScript } from './fake-script.js';
import type { ModelChoice } from './model-choice.js';

/** Chats in this app's own database; `persist` asks the browser not to evict it (or the model). */
const STORAGE: StorageOptions = { dbName: 'tabagent-pwa', persist: true };

export async function startAgent(choice: ModelChoice, onProgress: (progress: LoadProgress) => void): Promise<{ agent: Agent; notice?: string }> {
  let notice: string;
  if (!choice.webgpu) {
    notice = `No WebGPU (${choice.reason ?? 'unavailable'}), so no real model can run here. The assistant is a scripted fake model instead.`;
  } else if (!navigator.onLine && !(await isModelCached(choice.modelId).catch(() => false))) {
    // A download would only fail, after a wait: say so at once.
    notice = `You are offline and ${choice.modelId} has not been downloaded yet. Using a scripted fake model until you are back online.`;
  } else {
    // The store opens at once; the model goes on loading.
    const agent = await createAgent({ model: choice.modelId, storage: STORAGE, onProgress });
    try {
      await agent.ready;
      return { agent };
    } catch (error) {
      notice = `Could not load ${choice.modelId}: ${whyNot(error)}. Using a scripted fake model instead.`;
      await agent.load(fakeModel(pwaScript, { tokenDelayMs: 10 }), { onProgress: undefined });
      return { agent, notice };
    }
  }
  const agent = await createAgent({ model: fakeModel(pwaScript, { tokenDelayMs: 10 }), storage: STORAGE });
  await agent.ready;
  return { agent, notice };
}

/** The reason alone: the error's own message would say "Could not load" a second time. */
function whyNot(error: unknown): string {
  const reason = isModelLoadError(error) ? error.reason : isWebGPUUnavailableError(error) ? `no usable WebGPU (${error.reason})` : String((error as Error)?.message ?? error);
  return /failed to fetch|networkerror|load failed/i.test(reason) ? 'the network request failed' : reason.replace(/[.\s]+$/, '');
}
