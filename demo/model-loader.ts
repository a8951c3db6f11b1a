// Loading a model into the page's one agent: one load at a time, cancellable,
// remembered for the next visit once it worked. A real model that fails to
// load hands over to the scripted fake model, so the page always works; the
// view offers to try again.
import type { Agent, GgufModel, LoadProgress } from '../src/index.js';
import { fakeModel, type FakeModel } from '../src/testing/index.js';
import { canRunCpuModels, cpuOptions, isCpuChoiceCached } from './cpu-catalog.js';
import { demoScript, FAKE_TOKEN_DELAY_MS } from './fake-script.js';
import { buildFor, webllmOptions } from './model-catalog.js';
import { choiceByKey, FALLBACK, pickedFile, type FakeChoice, type GgufChoice, type ModelChoice } from './models.js';

const SAVED_MODEL = 'tabagent-demo:model';

/** Where a load gets its weights: the network, this browser's storage, a file the person picked, or nowhere (a scripted model). */
export type LoadSource = 'download' | 'cache' | 'file' | 'none';

export interface LoaderView {
  /** A load starts. */
  loading(choice: ModelChoice, from: LoadSource): void;
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
      const { model, from } = await plan(choice);
      if (!mine()) return;
      this.view.loading(choice, from);
      await this.agent.load(model, { signal: stop.signal, onProgress: (p) => this.view.progress(choice, p) });
      if (!mine()) return;
      this.#stop = null;
      // A pretend download is not worth replaying on every visit; a picked file cannot be reopened without the person.
      if (!(choice.kind === 'fake' && choice.download) && !(choice.kind === 'gguf' && pickedFile(choice))) localStorage.setItem(SAVED_MODEL, choice.key);
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

/** What agent.load gets for `choice`, and where its weights come from. */
async function plan(choice: ModelChoice): Promise<{ model: string | GgufModel | FakeModel; from: LoadSource }> {
  if (choice.kind === 'webllm') {
    const listing = await buildFor(choice);
    return { model: listing.id, from: listing.cached ? 'cache' : 'download' };
  }
  if (choice.kind === 'gguf') return { model: choice.model, from: pickedFile(choice) ? 'file' : (await isCpuChoiceCached(choice)) ? 'cache' : 'download' };
  return { model: fakeFor(choice), from: choice.download ? 'download' : 'none' };
}

/**
 * What to load on arrival, without downloading anything: the model last
 * used here if it is still downloaded (or a scripted one), else a downloaded
 * model for this browser's hardware (a GPU model with WebGPU, a CPU model
 * without). Without WebGPU the scripted fake answers when nothing else can,
 * so the page works at once; with it, null: wait for the person to choose.
 */
export async function startupChoice(webgpu: boolean): Promise<ModelChoice | null> {
  const saved = choiceByKey(localStorage.getItem(SAVED_MODEL));
  if (saved?.kind === 'fake') return saved;
  if (saved?.kind === 'gguf' && (await canRunCpuModels()) && (await isCpuChoiceCached(saved))) return saved;
  if (webgpu) {
    const downloaded = (await webllmOptions().catch(() => [])).filter((o) => o.listing.cached && o.listing.runnable !== false);
    return (downloaded.find((o) => o.choice.key === saved?.key) ?? downloaded[0])?.choice ?? null;
  }
  return (await downloadedCpuChoice()) ?? FALLBACK;
}

/** A curated CPU model already downloaded (and runnable here), smallest first. */
async function downloadedCpuChoice(): Promise<GgufChoice | undefined> {
  const options = await cpuOptions([]).catch(() => []);
  return options.find((o) => o.facts.cached && o.facts.runnable)?.choice;
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
