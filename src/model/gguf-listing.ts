// The curated GGUF models as a model picker sees them, from the page: no
// worker, no wllama. Whether a file is downloaded is read from wllama 3.13's
// browser cache as it lays it out (the Origin Private File System's `cache`
// folder: `<sha1 of the URL>_<file name>`, beside `__metadata__<that name>`
// holding the size it should have), so a half-written file never counts.
import { ggufUrl, type GgufCatalogEntry } from './gguf-catalog.js';
import { missingWllamaFeatures } from '../shared/wllama-support.js';

/** What listModels says of one GGUF model (see ModelListing). */
export interface GgufListingFacts {
  id: string;
  base: string;
  quantization: string;
  url: string;
  cached: boolean;
  /** This browser can run wllama's build (WebAssembly memory64 and JSPI). */
  runnable: boolean;
}

export async function ggufFacts(entry: GgufCatalogEntry, storage: StorageManager | undefined): Promise<GgufListingFacts> {
  const url = ggufUrl(entry);
  const [, base = entry.id, quantization = ''] = /^(.*)-([A-Z0-9_]+)-GGUF$/.exec(entry.id) ?? [];
  return { id: entry.id, base, quantization, url, cached: await isDownloaded(url, storage), runnable: missingWllamaFeatures().length === 0 };
}

async function isDownloaded(url: string, storage: StorageManager | undefined): Promise<boolean> {
  if (!storage?.getDirectory) return false;
  try {
    const folder = await (await storage.getDirectory()).getDirectoryHandle('cache');
    const name = await fileName(url);
    const [file, metadata] = await Promise.all([
      folder.getFileHandle(name).then((h) => h.getFile()),
      folder.getFileHandle(`__metadata__${name}`).then(async (h) => JSON.parse(await (await h.getFile()).text()) as { originalSize?: number }),
    ]);
    return metadata.originalSize === file.size;
  } catch {
    // No folder, no file, or unreadable metadata: not downloaded (wllama would fetch it again).
    return false;
  }
}

async function fileName(url: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(url)));
  return `${[...hash].map((b) => b.toString(16).padStart(2, '0')).join('')}_${url.split('/').pop()}`;
}
