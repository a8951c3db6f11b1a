// The only module that imports wllama (llama.cpp in WebAssembly, on the CPU).
// Kept thin: check the browser, fetch and cache the GGUF, load it, complete
// prompts under a GBNF grammar, interrupt, and translate wllama's errors.
// One file (over 300 lines) so that wllama is imported by one module only,
// and its loader stays one chunk of the worker.
// The prompt is rendered before it gets here, with the GGUF's own chat
// template (worker/template-prompt.ts); calls are read by tabagent's codec
// for the family and constrained by tabagent's grammar, translated to GBNF.
import { CacheManager, LogLevel, Wllama, WllamaAbortError, type RawCompletionChunk, type WllamaLogger } from '@wllama/wllama';
import { isModelLoadError, ModelLoadError } from '../errors/index.js';
import { messageOf } from '../errors/message-of.js';
import { toGbnf } from '../protocol/gbnf.js';
import { countTokens } from '../protocol/token-estimate.js';
import { DEFAULT_GGUF_CONTEXT, MAX_GGUF_CONTEXT, type GgufSpec } from '../rpc/worker-protocol.js';
import { blobSource, NotGgufError, readGgufHeader, responseSource, type ByteSource, type GgufHeader } from './gguf-header.js';
import type { FinishReason, LoadProgress } from '../shared/model.js';
import type { ResponseFormat } from '../shared/tool-protocol.js';
import type { Engine, EngineResult, PromptRequest } from './engine.js';
import { generationError } from './engine-errors.js';
import { downloadSpeed } from './load-progress.js';
import { missingWllamaFeatures } from '../shared/wllama-support.js';
import { refusalError, refusalMark } from './csp-refusals.js';
import wasmUrl from './wllama-wasm.js';
import { inSharedWorker } from './wllama-here.js';

// Readies the realm before a load: in a shared worker, llama.cpp's worker runs in this thread (wllama-here.ts).
export { prepareWllama } from './wllama-here.js';
import { WritableOpfsBackend } from './writable-opfs-backend.js';

// The GGUF's own template renders its prompts: the Jinja engine comes with this chunk, not the worker.
export { ggufTemplate } from './gguf-template.js';


export interface LoadedGguf<T> {
  engine: Engine<PromptRequest>;
  /** The window llama.cpp was given: the app's contextSize, or the default, capped by the model's trained window and by memory. */
  contextWindow: number;
  threads: number;
  /** What `prepare` made of the chat template, before anything was downloaded. */
  prepared: T;
}

/**
 * Reads the GGUF's header (a Blob's start, the cached file's, or the first
 * bytes over HTTP) and hands its chat template (or the spec's) to `prepare`
 * before anything is downloaded: a file tabagent cannot run fails then, not
 * after gigabytes. Then downloads it (once: wllama's cache) and loads it.
 */
export async function loadGguf<T>(spec: GgufSpec, onProgress: (p: LoadProgress) => void, prepare: (chatTemplate: string) => T): Promise<LoadedGguf<T>> {
  const { modelId } = spec;
  checkBrowser(modelId);
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  await reachable(modelId, wasmUrl);
  // Before the download where the server gives the file's start; else from the downloaded file.
  const before = await headerBefore(spec);
  let header = before?.header;
  let planned = header && plan(spec, header, prepare);
  // Where the file's size is known too, a model whose KV cache cannot fit beside its weights is refused before the download.
  if (header && before?.size !== undefined) memoryWindow(header, before.size, spec);
  const blob = spec.blob ?? (await download(spec, onProgress, elapsed));
  if (!header) {
    header = await headerOf(spec, blobSource(blob));
    planned = plan(spec, header, prepare);
  }
  const { prepared, contextWindow } = planned!;
  const n_ctx = Math.min(contextWindow, memoryWindow(header, blob.size, spec));
  onProgress({ progress: 1, text: 'Loading the model into memory', timeElapsedSeconds: elapsed(), phase: 'load', loaded: blob.size, total: blob.size });
  // llama.cpp says why a load failed only in its log: the errors are kept for the ModelLoadError.
  const said: string[] = [];
  const logger: WllamaLogger = { debug: () => undefined, log: () => undefined, warn: () => undefined, error: (...parts: unknown[]) => void said.push(parts.map(String).join(' ')) };
  const wllama = new Wllama({ default: wasmUrl }, { logger });
  try {
    await wllama.loadModel([blob], {
      log_level: LogLevel.ERROR,
      n_ctx,
      // A shared worker starts no workers, so llama.cpp runs there on its one thread.
      n_threads: inSharedWorker() ? 1 : spec.threads,
      // The CPU engine: WebLLM is the GPU one.
      n_gpu_layers: 0,
      // One conversation at a time, in one slot, so its KV cache is the one reused. Chats that take
      // turns keep their prefixes anyway: llama.cpp copies the chat the slot leaves to its host prompt
      // cache and copies it back on its return. Several slots on a unified KV cache gained nothing
      // over that, and where the chats together outgrow the window llama.cpp purged the idle slot
      // unsaved, so every hop read its whole prompt again (e2e/wllama.spec.ts, docs/performance.md).
      n_parallel: 1,
      ctx_shift: false,
      // tabagent renders every prompt itself; llama.cpp's own chat handling
      // only has to start, and fails to on templates its Jinja cannot parse
      // (`{% do %}`, `'%s' % x`, broken ones, ones that raise). It gets one it parses.
      chat_template: LLAMA_CPP_TEMPLATE,
    });
    // wllama 3.13 does not check llama.cpp's answer: a file it could not load still "loads", empty.
    if ((wllama.getLoadedContextInfo() as { success?: boolean }).success === false) throw new Error(said.slice(0, 4).join('; ') || 'llama.cpp refused the file');
  } catch (cause) {
    await wllama.exit().catch(() => undefined);
    throw loadError(spec, cause);
  }
  return { engine: wllamaEngine(wllama, n_ctx), contextWindow: n_ctx, threads: wllama.getNumThreads(), prepared };
}

/**
 * wllama's WebAssembly, asked about before any download: wllama fetches it
 * only once the model is in, and a page whose policy refuses it (the bundle's
 * origin missing from connect-src) crashed the worker after the whole
 * download. One byte, asked as wllama will ask (a GET: a service worker's
 * precache answers it offline, where it answers no HEAD). Any other failure
 * is left to wllama, whose own fetch may still find the file.
 */
async function reachable(modelId: string, url: string): Promise<void> {
  const mark = refusalMark();
  try {
    const response = await fetch(url, { headers: { Range: 'bytes=0-0' } });
    await response.body?.cancel();
  } catch {
    const refused = await refusalError(modelId, mark, url);
    if (refused) throw refused;
  }
}

/** A template llama.cpp's Jinja parses (ChatML): only its chat handling ever reads it, and tabagent never asks that. */
const LLAMA_CPP_TEMPLATE = "{%- for message in messages -%}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' -}}{%- endfor -%}{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}";

function plan<T>(spec: GgufSpec, header: GgufHeader, prepare: (chatTemplate: string) => T): { prepared: T; contextWindow: number } {
  const chatTemplate = spec.chatTemplate ?? header.chatTemplate;
  if (!chatTemplate) throw new ModelLoadError({ modelId: spec.modelId, reason: 'the GGUF has no chat template (tokenizer.chat_template); pass chatTemplate', retryable: false });
  const prepared = prepare(chatTemplate);
  // The model's trained window bounds the app's, and the default (at most DEFAULT_GGUF_CONTEXT).
  const trained = header.contextLength && header.contextLength > 0 ? Math.min(header.contextLength, MAX_GGUF_CONTEXT) : undefined;
  const asked = spec.contextSize ?? Math.min(trained ?? DEFAULT_GGUF_CONTEXT, DEFAULT_GGUF_CONTEXT);
  return { prepared, contextWindow: Math.min(asked, trained ?? asked) };
}

/** wllama's build addresses at most 4 GiB (its MAXIMUM_MEMORY); the weights take their share first. */
const WASM_MEMORY = 4 * 2 ** 30;
/** Left for llama.cpp's compute buffers, the tokenizer and the runtime. */
const RESERVED_MEMORY = 512 * 2 ** 20;

/** The largest window whose KV cache (f16 keys and values, every layer) fits beside the weights. */
function memoryWindow(header: GgufHeader, fileBytes: number, spec: GgufSpec): number {
  const { blockCount, headCount, headCountKv, embeddingLength } = header;
  const headSize = headCount && embeddingLength ? embeddingLength / headCount : undefined;
  const keys = header.keyLength ?? headSize;
  const values = header.valueLength ?? headSize;
  if (!blockCount || !keys || !values) return MAX_GGUF_CONTEXT;
  const perToken = blockCount * (headCountKv ?? headCount ?? 1) * (keys + values) * 2;
  const room = WASM_MEMORY - fileBytes - RESERVED_MEMORY;
  const window = Math.floor(room / perToken / 256) * 256;
  if (window < 256) throw new ModelLoadError({ modelId: spec.modelId, reason: `the model does not fit in this browser's WebAssembly memory (${fileBytes} bytes of weights, 4 GiB in all)`, retryable: false });
  return window;
}

/**
 * The header before any download, and the file's size where known: a
 * Blob's, the cached file's, or the start of the file over HTTP (its size
 * from the response); undefined where the server will not say.
 */
async function headerBefore(spec: GgufSpec): Promise<{ header: GgufHeader; size: number | undefined } | undefined> {
  const read = async (source: ByteSource) => ({ header: await headerOf(spec, source), size: source.size });
  if (spec.blob) return read(blobSource(spec.blob));
  const url = spec.url!;
  const cached = (await isCached(url)) ? await wllamaCache().open(url) : null;
  if (cached) return read(blobSource(cached));
  let response: Response;
  const mark = refusalMark();
  try {
    // The start of the file, as far as its metadata goes: the body is dropped once it is read.
    // Never through the HTTP cache: the body is dropped part-read, and a part kept there was later served as the whole file.
    response = await fetch(url, { headers: { Range: `bytes=0-${HEADER_BYTES - 1}` }, cache: 'no-store' });
  } catch {
    // Refused by the page's policy: the download would be too, so say so now. Else the download tells.
    const refused = await refusalError(spec.modelId, mark, url);
    if (refused) throw refused;
    return undefined;
  }
  // A missing file, or a server that answers otherwise: the download says why.
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  try {
    return await read(responseSource(response, HEADER_BYTES));
  } catch (error) {
    // Metadata longer than the bytes asked for, or a connection that dropped (a TypeError): the downloaded file decides.
    // A file that lies about a length, or whose numbers no model has, is refused here, before the download.
    if (isModelLoadError(error)) throw error;
    return undefined;
  }
}

/** As much of a file as its metadata may take: Gemma 3's 262k-token vocabulary needs about 7 MB. */
const HEADER_BYTES = 64 * 2 ** 20;

/**
 * The header; ModelLoadError where the file is no GGUF, is corrupt, or
 * claims more than it holds; SourceEndedError where the source was a window
 * that ended first (the HTTP Range).
 */
async function headerOf(spec: GgufSpec, source: ByteSource): Promise<GgufHeader> {
  try {
    return await readGgufHeader(source, spec.modelId);
  } catch (error) {
    // A page in place of the file (a login, an error page) is no model: it does not stay in the cache.
    if (isModelLoadError(error) && error.cause instanceof NotGgufError && spec.url) await deleteCached(spec.url).catch(() => undefined);
    throw error;
  }
}

/**
 * Whether a GGUF's file is in wllama's browser cache, whole: its metadata,
 * written once the last byte is, says so (wllama's own lookup takes a file
 * without metadata for whole). A part left by a download that stopped (a
 * cancelled load, a closed tab) is removed, unless a download is writing it.
 */
export async function isCached(url: string): Promise<boolean> {
  const cache = wllamaCache();
  const name = await cache.getNameFromURL(url);
  const size = await cache.getSize(name);
  if (size < 0) return false;
  const metadata = await readMetadata(cache, name);
  if (metadata?.originalSize === size && metadata.originalURL === url) return true;
  await withDownloadLock(url, true, () => cache.delete(url));
  return false;
}

/** wllama's metadata file as written, without its stand-in for a file that has none. */
async function readMetadata(cache: CacheManager, name: string): Promise<{ originalSize?: number; originalURL?: string } | null> {
  const blob = await cache.open(`__metadata__${name}`);
  if (!blob) return null;
  try {
    return JSON.parse(await blob.text()) as { originalSize?: number; originalURL?: string };
  } catch {
    return null;
  }
}

/** One download of a URL at a time, across tabs and workers; `ifAvailable`: skip `run` while one is going on. */
async function withDownloadLock<T>(url: string, ifAvailable: boolean, run: () => Promise<T>): Promise<T | undefined> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) return run();
  return locks.request(`tabagent-gguf:${url}`, { ifAvailable }, (lock) => (lock ? run() : undefined));
}

/** wllama's cache; in a shared worker, written with a writable stream (worker/writable-opfs-backend.ts). */
function wllamaCache(): CacheManager {
  return inSharedWorker() ? new CacheManager([new WritableOpfsBackend()]) : new CacheManager();
}

export async function deleteCached(url: string): Promise<void> {
  await wllamaCache().delete(url);
}

/** @internal Exported for its unit test, with a stand-in Wllama. */
export function wllamaEngine(wllama: Pick<Wllama, 'createCompletion' | 'exit'>, contextWindow: number): Engine<PromptRequest> {
  let stop: AbortController | null = null;
  // A chat asks for the same few constraints hop after hop: each is translated once.
  const grammars = new Map<string, string>();
  const gbnf = (format: ResponseFormat): string => {
    const key = JSON.stringify(format);
    let grammar = grammars.get(key);
    if (grammar === undefined) {
      grammar = toGbnf(format);
      if (grammars.size >= 32) grammars.delete(grammars.keys().next().value!);
      grammars.set(key, grammar);
    }
    return grammar;
  };
  return {
    async complete(request, onDelta): Promise<EngineResult> {
      const abort = new AbortController();
      stop = abort;
      let text = '';
      let finish: FinishReason = 'stop';
      let last: (RawCompletionChunk & { usage?: Usage | null; timings?: Timings }) | undefined;
      try {
        await wllama.createCompletion({
          prompt: request.prompt,
          stream: true,
          abortSignal: abort.signal,
          max_tokens: request.max_tokens,
          // llama.cpp's default sampling is not WebLLM's: greedy unless asked, so one prompt gives one answer.
          temperature: request.temperature ?? 0,
          top_p: request.top_p,
          seed: request.seed,
          // llama.cpp's server holds a stop string's first half back, and leaves the string out.
          stop: request.stop,
          grammar: request.response_format ? gbnf(request.response_format) : undefined,
          // llama.cpp's server fields: keep the KV cache and count what it saved.
          ...({ cache_prompt: true, timings_per_token: false } as object),
          onData: (chunk: RawCompletionChunk) => {
            last = chunk;
            const choice = chunk.choices[0];
            if (choice?.text) {
              text += choice.text;
              onDelta(choice.text);
            }
            if (choice?.finish_reason === 'length') finish = 'length';
          },
        });
      } catch (cause) {
        if (cause instanceof WllamaAbortError || abort.signal.aborted) finish = 'abort';
        else throw engineError(cause, request.prompt, contextWindow);
      } finally {
        if (stop === abort) stop = null;
      }
      return { text, finishReason: finish, usage: usageOf(last) };
    },
    interrupt() {
      stop?.abort();
    },
    unload: () => wllama.exit(),
  };
}

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

/** llama.cpp's timings: prompt_n tokens prefilled, cache_n taken from the KV cache, predicted_n decoded. */
interface Timings {
  prompt_n?: number;
  cache_n?: number;
  predicted_n?: number;
  prompt_per_second?: number;
  predicted_per_second?: number;
}

function usageOf(chunk: { usage?: Usage | null; timings?: Timings } | undefined): EngineResult['usage'] {
  const { usage, timings } = chunk ?? {};
  const cached = timings?.cache_n ?? usage?.prompt_tokens_details?.cached_tokens;
  // As WebLLM counts them: the tokens read, not those the KV cache held.
  const prefilled = timings?.prompt_n ?? (usage?.prompt_tokens ?? 0) - (cached ?? 0);
  return {
    promptTokens: prefilled,
    completionTokens: usage?.completion_tokens ?? timings?.predicted_n ?? 0,
    ...(cached !== undefined ? { cachedTokens: cached } : {}),
    ...(timings?.prompt_per_second ? { prefillTokensPerSecond: timings.prompt_per_second } : {}),
    ...(timings?.predicted_per_second ? { decodeTokensPerSecond: timings.predicted_per_second } : {}),
  };
}

/** The same error WebLLM gives for a prompt too long, so the chat's harder trim and ContextOverflowError follow. */
function engineError(cause: unknown, prompt: string, contextWindow: number): Error {
  const message = messageOf(cause);
  if (/exceed.*context|context size|context.*(full|exceed)/i.test(message)) {
    const tokens = /n_prompt_tokens"?\s*[:=]\s*(\d+)/.exec(message)?.[1];
    // llama.cpp's message may not count the prompt: then tabagent's own estimate, as the window check uses.
    const overflow = new Error(`${message}: number of prompt tokens: ${tokens ?? countTokens(prompt)}; context window size: ${contextWindow}`);
    overflow.name = 'ContextWindowSizeExceededError';
    return generationError(overflow);
  }
  return generationError(cause);
}

async function download(spec: GgufSpec, onProgress: (p: LoadProgress) => void, elapsed: () => number): Promise<Blob> {
  const url = spec.url!;
  const cache = wllamaCache();
  const speed = downloadSpeed();
  const fetched = await withDownloadLock(url, false, async () => {
    const mark = refusalMark();
    try {
      await cache.download(url, {
        progressCallback: ({ loaded, total }) => {
          const bytesPerSecond = speed(loaded);
          onProgress({ progress: total ? loaded / total : 0, text: `Fetching ${spec.modelId}`, timeElapsedSeconds: elapsed(), phase: 'download', loaded, ...(total ? { total } : {}), ...(bytesPerSecond !== undefined ? { bytesPerSecond } : {}) });
        },
      });
    } catch (cause) {
      // What a dropped connection left is no model: it goes, and a retry starts afresh.
      if (!(await isCached(url).catch(() => false))) await cache.delete(url).catch(() => undefined);
      const refused = await refusalError(spec.modelId, mark, url);
      if (refused) throw refused;
      const status = /HTTP (\d{3})/.exec(messageOf(cause))?.[1];
      // A missing file stays missing; a network failure or a server error may pass.
      const retryable = status === undefined || Number(status) >= 500 || status === '429';
      throw new ModelLoadError({ modelId: spec.modelId, reason: `downloading ${url} failed: ${messageOf(cause)}`, retryable }, { cause });
    }
    // wllama keeps what the body gave; a body shorter than its Content-Length is no model.
    if (!(await isCached(url))) {
      await cache.delete(url).catch(() => undefined);
      throw new ModelLoadError({ modelId: spec.modelId, reason: `downloading ${url} ended before the whole file came`, retryable: true });
    }
    return cache.open(url);
  });
  if (!fetched) throw new ModelLoadError({ modelId: spec.modelId, reason: `${url} was downloaded but is not in the browser's cache (storage full or cleared?)`, retryable: true });
  return fetched;
}

/** Fail before any download where wllama's build cannot run. */
function checkBrowser(modelId: string): void {
  const missing = missingWllamaFeatures();
  if (missing.length > 0) {
    throw new ModelLoadError({ modelId, reason: `this browser lacks ${missing.join(' and ')}, which wllama's CPU engine needs (current Chromium has both)`, retryable: false });
  }
}

/**
 * What llama.cpp's refusal means for the person. The file it read is whole
 * (a download that stopped never counts as cached), so the same bytes fail
 * the same way: nothing is deleted or fetched again, and only memory may
 * change (a smaller model or contextSize).
 */
function loadError(spec: GgufSpec, cause: unknown): ModelLoadError {
  const message = messageOf(cause);
  if (/bad_alloc|out of memory|failed to allocate|memory access out of bounds|RangeError/i.test(message)) {
    return new ModelLoadError({ modelId: spec.modelId, reason: `the model does not fit in this browser's WebAssembly memory (${message}); a smaller model or contextSize may`, retryable: false }, { cause });
  }
  if (/unknown (model )?architecture/i.test(message)) {
    return new ModelLoadError({ modelId: spec.modelId, reason: `wllama cannot run this model's architecture (${message})`, retryable: false }, { cause });
  }
  return new ModelLoadError({ modelId: spec.modelId, reason: `llama.cpp could not load the file (${message})`, retryable: false }, { cause });
}
