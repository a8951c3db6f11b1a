// The only module that imports wllama (llama.cpp in WebAssembly, on the CPU).
// Kept thin: check the browser, fetch and cache the GGUF, load it, complete
// prompts under a GBNF grammar, interrupt, and translate wllama's errors.
// The prompt is rendered before it gets here, with the GGUF's own chat
// template (protocol/template-prompt.ts); calls are read by tabagent's codec
// for the family and constrained by tabagent's grammar, translated to GBNF.
import { CacheManager, LogLevel, Wllama, WllamaAbortError, type RawCompletionChunk, type WllamaLogger } from '@wllama/wllama';
import { ModelLoadError } from '../errors/index.js';
import { messageOf } from '../errors/message-of.js';
import { toGbnf } from '../protocol/gbnf.js';
import { countTokens } from '../protocol/token-estimate.js';
import { DEFAULT_GGUF_CONTEXT, type GgufSpec } from '../rpc/worker-protocol.js';
import type { FinishReason, LoadProgress } from '../shared/model.js';
import type { ResponseFormat } from '../shared/tool-protocol.js';
import type { Engine, EngineResult, PromptRequest } from './engine.js';
import { generationError } from './engine-errors.js';
import { downloadSpeed } from './load-progress.js';
import { missingWllamaFeatures } from '../shared/wllama-support.js';
import wasmUrl from './wllama-wasm.js';

// The GGUF's own template renders its prompts: the Jinja engine comes with this chunk, not the worker.
export { TemplatePrompt } from './template-prompt.js';


export interface LoadedGguf {
  engine: Engine<PromptRequest>;
  contextWindow: number;
  /** The GGUF's `tokenizer.chat_template` (or the one the spec gave). */
  chatTemplate: string;
  threads: number;
}

export async function loadGguf(spec: GgufSpec, onProgress: (p: LoadProgress) => void): Promise<LoadedGguf> {
  const { modelId } = spec;
  checkBrowser(modelId);
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const blob = spec.blob ?? (await download(spec, onProgress, elapsed));
  await checkGguf(spec, blob);
  onProgress({ progress: 1, text: 'Loading the model into memory', timeElapsedSeconds: elapsed(), phase: 'load', loaded: blob.size, total: blob.size });
  // llama.cpp says why a load failed only in its log: the errors are kept for the ModelLoadError.
  const said: string[] = [];
  const logger: WllamaLogger = { debug: () => undefined, log: () => undefined, warn: () => undefined, error: (...parts: unknown[]) => void said.push(parts.map(String).join(' ')) };
  const wllama = new Wllama({ default: wasmUrl }, { logger });
  const n_ctx = spec.contextSize ?? DEFAULT_GGUF_CONTEXT;
  try {
    await wllama.loadModel([blob], {
      log_level: LogLevel.ERROR,
      n_ctx,
      n_threads: spec.threads,
      // The CPU engine: WebLLM is the GPU one.
      n_gpu_layers: 0,
      // One conversation at a time, in one slot, so its KV cache is the one reused.
      n_parallel: 1,
      ctx_shift: false,
    });
    // wllama 3.13 does not check llama.cpp's answer: a file it could not load still "loads", empty.
    if ((wllama.getLoadedContextInfo() as { success?: boolean }).success === false) throw new Error(said.slice(0, 4).join('; ') || 'llama.cpp refused the file');
  } catch (cause) {
    await wllama.exit().catch(() => undefined);
    throw await loadError(spec, cause);
  }
  const info = wllama.getLoadedContextInfo();
  const chatTemplate = spec.chatTemplate ?? wllama.getChatTemplate();
  if (!chatTemplate) {
    await wllama.exit();
    throw new ModelLoadError({ modelId, reason: 'the GGUF has no chat template (tokenizer.chat_template); pass chatTemplate', retryable: false });
  }
  // A model trained on a shorter window than asked for keeps to it, unless the app asked for more.
  const contextWindow = spec.contextSize ?? Math.min(info.n_ctx, info.n_ctx_train || info.n_ctx);
  return {
    engine: wllamaEngine(wllama, contextWindow),
    contextWindow,
    chatTemplate,
    threads: wllama.getNumThreads(),
  };
}

/** Whether a GGUF's file is in wllama's browser cache, whole. */
export async function isCached(url: string): Promise<boolean> {
  const cache = new CacheManager();
  const name = await cache.getNameFromURL(url);
  const [size, metadata] = await Promise.all([cache.getSize(name), cache.getMetadata(name)]);
  return size >= 0 && metadata?.originalSize === size;
}

export async function deleteCached(url: string): Promise<void> {
  await new CacheManager().delete(url);
}

function wllamaEngine(wllama: Wllama, contextWindow: number): Engine<PromptRequest> {
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
  const cache = new CacheManager();
  const speed = downloadSpeed();
  try {
    await cache.download(url, {
      progressCallback: ({ loaded, total }) => {
        const bytesPerSecond = speed(loaded);
        onProgress({ progress: total ? loaded / total : 0, text: `Fetching ${spec.modelId}`, timeElapsedSeconds: elapsed(), phase: 'download', loaded, ...(total ? { total } : {}), ...(bytesPerSecond !== undefined ? { bytesPerSecond } : {}) });
      },
    });
  } catch (cause) {
    const status = /HTTP (\d{3})/.exec(messageOf(cause))?.[1];
    // A missing file stays missing; a network failure or a server error may pass.
    const retryable = status === undefined || Number(status) >= 500 || status === '429';
    throw new ModelLoadError({ modelId: spec.modelId, reason: `downloading ${url} failed: ${messageOf(cause)}`, retryable }, { cause });
  }
  const blob = await cache.open(url);
  if (!blob) throw new ModelLoadError({ modelId: spec.modelId, reason: `${url} was downloaded but is not in the browser's cache (storage full or cleared?)`, retryable: true });
  return blob;
}

/** A file that is not a GGUF never reaches llama.cpp, whose message would say less. */
async function checkGguf(spec: GgufSpec, blob: Blob): Promise<void> {
  const head = new Uint8Array(await blob.slice(0, 4).arrayBuffer());
  if (new TextDecoder().decode(head) === 'GGUF') return;
  // A bad file in the cache would fail every load: it goes, and a retry downloads it again.
  if (spec.url) await deleteCached(spec.url).catch(() => undefined);
  const shown = [...head].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  throw new ModelLoadError({ modelId: spec.modelId, reason: `not a GGUF file (it starts with ${shown || 'nothing'}, not "GGUF")`, retryable: false });
}

/** Fail before any download where wllama's build cannot run. */
function checkBrowser(modelId: string): void {
  const missing = missingWllamaFeatures();
  if (missing.length > 0) {
    throw new ModelLoadError({ modelId, reason: `this browser lacks ${missing.join(' and ')}, which wllama's CPU engine needs (current Chromium has both)`, retryable: false });
  }
}

/** What llama.cpp's refusal means for the person: a file to fetch again, or a model this build cannot run. */
async function loadError(spec: GgufSpec, cause: unknown): Promise<ModelLoadError> {
  const message = messageOf(cause);
  if (/bad_alloc|out of memory|failed to allocate|memory access out of bounds|RangeError/i.test(message)) {
    return new ModelLoadError({ modelId: spec.modelId, reason: `the model does not fit in this browser's WebAssembly memory (${message}); a smaller model or contextSize may`, retryable: false }, { cause });
  }
  if (/unknown (model )?architecture/i.test(message)) {
    return new ModelLoadError({ modelId: spec.modelId, reason: `wllama cannot run this model's architecture (${message})`, retryable: false }, { cause });
  }
  // A truncated or corrupt file: a URL's is fetched again after its cached copy goes.
  if (spec.url) await deleteCached(spec.url).catch(() => undefined);
  return new ModelLoadError({ modelId: spec.modelId, reason: `llama.cpp could not load the file (${message})`, retryable: spec.url !== undefined }, { cause });
}
