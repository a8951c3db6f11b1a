// What the picker knows about each CPU (GGUF) choice: its download size, the
// context it runs with, whether it is downloaded, whether this browser can run
// wllama at all. The curated ones come from listModels at once (no worker, no
// network), but for a size the curated list lacks, which listModels asks of
// the server (a HEAD request). The person's own URL takes longer too: the
// browser's cache is asked by a short worker and the size by one HEAD
// request. What takes the network comes after.
import { isModelCached, listModels } from '../src/index.js';
import { GGUF_CHOICES, pickedFile, type GgufChoice } from './models.js';

export interface CpuFacts {
  /** The key of the curated model (its listModels id) or of the person's file. */
  id: string;
  /** Bytes to download (or the picked file's size), when known. */
  bytes?: number;
  /** Tokens of prompt and reply it runs with; for the person's own file, the most it may have. */
  contextWindow: number;
  /** `contextWindow` is the model's (curated); else only the cap, as the file's own window is read when it loads. */
  contextExact: boolean;
  cached: boolean;
  /** This browser has what wllama needs (WebAssembly memory64 and JSPI). */
  runnable: boolean;
}

export interface CpuOption {
  choice: GgufChoice;
  facts: CpuFacts;
}

/**
 * tabagent gives a GGUF model its trained window, at most this many tokens,
 * unless told otherwise (GgufModel.contextSize); the KV cache grows with it,
 * and a curated id takes no contextSize. So this, not the trained 32K or
 * 128K, is the window the demo's CPU models have.
 */
const DEFAULT_CONTEXT = 4096;

/**
 * Sizes asked of servers once per page, by URL or curated id: a GGUF's size
 * does not change under the same URL often enough to ask again. One that
 * could not be had (offline) is asked again next time.
 */
const sizes = new Map<string, Promise<number | undefined>>();

/** Every CPU choice, the person's own last: from listModels and the files in hand, without the network. */
export async function cpuOptions(own: readonly GgufChoice[]): Promise<CpuOption[]> {
  const ids = GGUF_CHOICES.map((c) => c.model as string);
  const listings = new Map((await listModels({ ids })).map((l) => [l.id, l]));
  const curated = GGUF_CHOICES.map((choice): CpuOption => {
    const listing = listings.get(choice.model as string)!;
    const facts = { id: listing.id, bytes: listing.downloadBytes, contextWindow: Math.min(listing.contextWindow, DEFAULT_CONTEXT), contextExact: true, cached: listing.cached, runnable: listing.runnable !== false };
    return { choice, facts };
  });
  // wllama runs every GGUF here or none: the curated listings say which.
  const runnable = curated.every((o) => o.facts.runnable);
  const mine = own.map((choice): CpuOption => {
    // The size the person asked for (&ctx=) is the window; else only the cap is known before it loads.
    const asked = typeof choice.model === 'object' ? choice.model.contextSize : undefined;
    return { choice, facts: { id: choice.key, bytes: pickedFile(choice)?.size, contextWindow: asked ?? DEFAULT_CONTEXT, contextExact: asked !== undefined, cached: false, runnable } };
  });
  return [...curated, ...mine];
}

/** The options with what only the network or a worker can tell: a curated model's size the list lacks; of the person's URL, downloaded or not, and its size. */
export async function withFetchedFacts(options: readonly CpuOption[]): Promise<CpuOption[]> {
  return Promise.all(
    options.map(async (option) => {
      const { model } = option.choice;
      if (typeof model === 'string') return option.facts.bytes !== undefined ? option : { ...option, facts: { ...option.facts, bytes: await curatedSize(model) } };
      const url = ownUrl(option.choice);
      if (!url) return option;
      const [cached, bytes] = await Promise.all([isModelCached({ gguf: url }).catch(() => false), sizeAt(url)]);
      return { ...option, facts: { ...option.facts, cached, bytes } };
    }),
  );
}

/** Whether `choice` loads from this browser's storage (nothing to download). */
export async function isCpuChoiceCached(choice: GgufChoice): Promise<boolean> {
  if (pickedFile(choice)) return false;
  // A curated one is read from the page (listModels); a URL needs the worker's look at wllama's cache.
  if (typeof choice.model === 'string') return (await listModels({ ids: [choice.model] }).catch(() => []))[0]?.cached ?? false;
  return isModelCached(choice.model).catch(() => false);
}

/** The URL of a choice the person gave by address; curated ones and picked files have none here. */
function ownUrl(choice: GgufChoice): string | undefined {
  return typeof choice.model === 'object' && typeof choice.model.gguf === 'string' ? choice.model.gguf : undefined;
}

function sizeAt(url: string): Promise<number | undefined> {
  // Content-Length is readable across origins (a CORS-safelisted header); a server that refuses HEAD leaves it unknown.
  return sizeOnce(url, () =>
    fetch(url, { method: 'HEAD' }).then(
      (response) => (response.ok ? Number(response.headers.get('content-length')) || undefined : undefined),
      () => undefined,
    ),
  );
}

/** A curated model's size from its server, as listModels asks for it. */
function curatedSize(id: string): Promise<number | undefined> {
  return sizeOnce(id, () => listModels({ ids: [id], fetchSizes: true }).then(([listing]) => listing?.downloadBytes, () => undefined));
}

function sizeOnce(key: string, ask: () => Promise<number | undefined>): Promise<number | undefined> {
  let size = sizes.get(key);
  if (!size) {
    size = ask();
    sizes.set(key, size);
    void size.then((bytes) => bytes === undefined && sizes.delete(key));
  }
  return size;
}

/** Whether wllama runs in this browser (WebAssembly memory64 and JSPI): listModels says it of every curated GGUF alike. */
export async function canRunCpuModels(): Promise<boolean> {
  const listings = await listModels({ engines: ['wllama'] }).catch(() => []);
  return listings.some((l) => l.runnable !== false);
}
