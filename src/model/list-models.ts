// listModels, as the package exports it: the model table and the catalog of
// WebLLM's prebuilt models (a few kB) load only when a list is asked for.
import type { ListModelsOptions, ModelListing } from './model-listing.js';

export type { ListModelsOptions, ModelListing } from './model-listing.js';

/** WebLLM's prebuilt chat models and the curated GGUF models, with what a model picker needs to know about each, before any download (no worker, no engine). */
export async function listModels(options?: ListModelsOptions): Promise<ModelListing[]> {
  const listing = await import('./model-listing.js');
  return listing.listModels(options);
}
