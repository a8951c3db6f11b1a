// What the picker knows about each WebLLM choice: the build this browser
// should use, and what listModels says of it (size, GPU memory, context
// window, downloaded, runnable). No worker starts and WebLLM is not loaded.
import { listModels, type ModelListing } from '../src/index.js';
import { buildsOf, WEBLLM_CHOICES, type WebLLMChoice } from './models.js';

export interface WebLLMOption {
  choice: WebLLMChoice;
  /** The build to load here. */
  listing: ModelListing;
}

/** Every WebLLM choice with its build for this browser: from the cache and the GPU adapter only, no network. */
export async function webllmOptions(): Promise<WebLLMOption[]> {
  const listings = await listModels({ ids: WEBLLM_CHOICES.flatMap(buildsOf) });
  const byId = new Map(listings.map((listing) => [listing.id, listing]));
  return WEBLLM_CHOICES.map((choice) => ({ choice, listing: pickBuild(buildsOf(choice).map((id) => byId.get(id)!)) }));
}

/** A build already downloaded (and runnable) first; then the first this GPU runs; else the first, to show what it would need. */
function pickBuild(builds: ModelListing[]): ModelListing {
  return builds.find((b) => b.cached && b.runnable !== false) ?? builds.find((b) => b.runnable) ?? builds[0]!;
}

/**
 * The options with the download sizes of models not downloaded yet: one
 * small manifest (tensor-cache.json) fetched per model. A size that cannot
 * be fetched stays unknown.
 */
export async function withSizes(options: readonly WebLLMOption[], signal: AbortSignal): Promise<WebLLMOption[]> {
  // Only models this browser can run: the others' sizes would be fetched for nothing.
  const missing = options.filter((o) => o.listing.downloadBytes === undefined && o.listing.runnable !== false).map((o) => o.listing.id);
  if (missing.length === 0) return [...options];
  const sized = new Map((await listModels({ ids: missing, fetchSizes: true, signal })).map((listing) => [listing.id, listing.downloadBytes]));
  return options.map((o) => ({ ...o, listing: { ...o.listing, downloadBytes: o.listing.downloadBytes ?? sized.get(o.listing.id) } }));
}

/** The build to load for `choice` now (the picker may not have been opened). */
export async function buildFor(choice: WebLLMChoice): Promise<ModelListing> {
  const options = await webllmOptions();
  return options.find((o) => o.choice.key === choice.key)!.listing;
}
