// Starting an agent for a model choice, and which choice to start with. A real
// model that cannot load (no GPU in the worker, a failed download) falls back
// to the scripted fake model, so the page always works.
import { createAgent, type Agent, type LoadProgress } from '../src/index.js';
import { fakeModel, type FakeModel } from '../src/testing/index.js';
import { demoScript, FAKE_TOKEN_DELAY_MS } from './fake-script.js';
import type { GpuSupport } from './gpu.js';
import { DEFAULT_FAKE_KEY, DEFAULT_WEBLLM_KEY, FAKE_CHOICES, webllmChoices, type ModelChoice } from './models.js';

// No `persist: true`: Firefox would greet every first visit with a permission prompt.
const STORAGE = { dbName: 'tabagent-demo' };
const SAVED_MODEL = 'tabagent-demo:model';

export interface Loaded {
  agent: Agent;
  /** What runs: the choice, or the fake model when the choice failed. */
  choice: ModelChoice;
  /** Why the chosen real model did not load, when it did not. */
  failure?: unknown;
}

/** The last model that loaded here, if this GPU can still run it; else the default for this browser. */
export function initialChoice(gpu: GpuSupport): ModelChoice {
  const all = [...webllmChoices(gpu.f16), ...FAKE_CHOICES];
  const saved = all.find((c) => c.key === localStorage.getItem(SAVED_MODEL));
  if (saved && (saved.kind === 'fake' || gpu.available)) return saved;
  return all.find((c) => c.key === (gpu.available ? DEFAULT_WEBLLM_KEY : DEFAULT_FAKE_KEY))!;
}

export async function loadAgent(choice: ModelChoice, onProgress: (progress: LoadProgress) => void): Promise<Loaded> {
  if (choice.kind === 'webllm') {
    // The store opens at once; the model goes on loading.
    const agent = await createAgent({ model: choice.modelId, storage: STORAGE, onProgress });
    try {
      await agent.ready;
      localStorage.setItem(SAVED_MODEL, choice.key);
      return { agent, choice };
    } catch (failure) {
      // Not remembered: the next visit tries the chosen model again (the network may be back).
      const fallback = FAKE_CHOICES[0]!;
      // Not the chosen model's progress: the fake has nothing to download.
      await agent.load(fakeFor(fallback), { onProgress: undefined });
      return { agent, choice: fallback, failure };
    }
  }
  const agent = await createAgent({ model: fakeFor(choice), storage: STORAGE });
  await agent.ready;
  localStorage.setItem(SAVED_MODEL, choice.key);
  return { agent, choice };
}

function fakeFor(choice: ModelChoice): FakeModel {
  return fakeModel(demoScript(choice.family), { tokenDelayMs: FAKE_TOKEN_DELAY_MS, family: choice.family, modelId: choice.modelId, template: choice.template });
}
