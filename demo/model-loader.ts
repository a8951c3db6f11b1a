// Loading a model into the page's one agent: one load at a time, cancellable,
// remembered for the next visit once it worked. A real model that fails to
// load hands over to the scripted fake model, so the page always works; the
// view offers to try again.
import type { Agent, LoadProgress, ModelListing } from '../src/index.js';
import { fakeModel, type FakeModel } from '../src/testing/index.js';
import { demoScript, FAKE_TOKEN_DELAY_MS } from './fake-script.js';
import { buildFor, webllmOptions } from './model-catalog.js';
import { choiceByKey, FALLBACK, type FakeChoice, type ModelChoice } from './models.js';

const SAVED_MODEL = 'tabagent-demo:model';

export interface LoaderView {
  /** A load starts; `listing` is the WebLLM build (cached or not). */
  loading(choice: ModelChoice, listing?: ModelListing): void;
  progress(choice: ModelChoice, progress: LoadProgress): void;
  /** `failed`: the choice that could not load, when this is the fallback taking over. */
  ready(choice: ModelChoice, failed?: { choice: ModelChoice; error: unknown }): void;
  cancelled(choice: ModelChoice): void;
}

export class ModelLoader {
  #stop: AbortController | null = null;
  #current: ModelChoice | null = null;

  constructor(
    private readonly agent: Agent,
    private readonly view: LoaderView,
  ) {}

  /** The choice loading or running now (the fallback, after a failure); null when there is none. */
  get current(): ModelChoice | null {
    return this.#current;
  }

  get loading(): boolean {
    return this.#stop !== null;
  }

  /** Load `choice`, in place of whatever runs or loads now. Settles when it is ready, failed over, or cancelled. */
  async load(choice: ModelChoice): Promise<void> {
    this.#stop?.abort();
    const stop = (this.#stop = new AbortController());
    const mine = () => this.#stop === stop;
    this.#current = choice;
    try {
      const listing = choice.kind === 'webllm' ? await buildFor(choice) : undefined;
      if (!mine()) return;
      this.view.loading(choice, listing);
      await this.agent.load(choice.kind === 'webllm' ? listing!.id : fakeFor(choice), { signal: stop.signal, onProgress: (p) => this.view.progress(choice, p) });
      if (!mine()) return;
      this.#stop = null;
      // A pretend download is not worth replaying on every visit.
      if (!(choice.kind === 'fake' && choice.download)) localStorage.setItem(SAVED_MODEL, choice.key);
      this.view.ready(choice);
    } catch (error) {
      // Replaced by a newer load: that one reports.
      if (!mine()) return;
      if (stop.signal.aborted) {
        this.#stop = null;
        this.#current = null;
        this.view.cancelled(choice);
        return;
      }
      // Not remembered: the next visit offers the chosen model again (the network may be back).
      this.#current = FALLBACK;
      const fallback = await this.agent.load(fakeFor(FALLBACK), { signal: stop.signal }).then(
        () => true,
        () => false,
      );
      if (!mine() || !fallback) return;
      this.#stop = null;
      this.view.ready(FALLBACK, { choice, error });
    }
  }

  /** Stop the load in flight: its download stops, and the agent has no model. */
  cancel(): void {
    this.#stop?.abort();
  }
}

/**
 * What to load on arrival, without downloading anything: the model last
 * used here if it is still downloaded (or a scripted one), else any
 * downloaded model; without WebGPU, the scripted fake. Null: wait for the
 * person to choose.
 */
export async function startupChoice(webgpu: boolean): Promise<ModelChoice | null> {
  const saved = choiceByKey(localStorage.getItem(SAVED_MODEL));
  if (!webgpu) return saved?.kind === 'fake' ? saved : FALLBACK;
  if (saved?.kind === 'fake') return saved;
  const downloaded = (await webllmOptions().catch(() => [])).filter((o) => o.listing.cached && o.listing.runnable !== false);
  return (downloaded.find((o) => o.choice.key === saved?.key) ?? downloaded[0])?.choice ?? null;
}

function fakeFor(choice: FakeChoice): FakeModel {
  return fakeModel(demoScript(choice.family), {
    tokenDelayMs: FAKE_TOKEN_DELAY_MS,
    family: choice.family,
    modelId: choice.modelId,
    template: choice.template,
    ...(choice.download ? { load: choice.download } : {}),
  });
}
