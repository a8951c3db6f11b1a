// The only module that imports WebLLM. Kept thin: check the GPU before any
// download, load, stream, interrupt, and translate WebLLM's errors.
import { CreateMLCEngine, deleteChatConfigInCache, deleteModelInCache, deleteModelWasmInCache, hasModelInCache, prebuiltAppConfig, type AppConfig, type ChatCompletionMessageParam, type MLCEngine, type ModelRecord } from '@mlc-ai/web-llm';
import type { EngineMessage } from '../shared/tool-protocol.js';
import { DeviceLostError, ModelLoadError, ShaderF16UnsupportedError, WebGPUUnavailableError } from '../errors/index.js';
import { generationError, isDeviceLoss } from './engine-errors.js';
import { messageOf } from '../errors/message-of.js';
import type { LoadProgress } from '../shared/model.js';
import type { Engine, EngineRequest, EngineResult } from './engine.js';
import type { WebLLMSource } from '../webllm/app-config.js';
import { byteProgress } from './load-progress.js';
import { MODEL_CACHE, cleanModelUrl, manifestBytes, manifestUrl } from '../webllm/cache-layout.js';
import { configTemplateName } from '../webllm/chat-config.js';


/** When a model record sets no window, WebLLM takes the one in the model's mlc-chat-config.json; 4096 is what every prebuilt model but the -1k builds uses. */
const DEFAULT_CONTEXT_WINDOW = 4096;

/** `configTemplate`: the conversation template the model's mlc-chat-config.json names, which WebLLM renders prompts with. */
export async function loadWebLLM(source: WebLLMSource, onProgress: (p: LoadProgress) => void): Promise<{ engine: Engine; contextWindow: number; configTemplate: string | undefined }> {
  await checkGpu(source.modelId);
  const appConfig = appConfigFor(source);
  let engine: MLCEngine;
  // The manifest is in WebLLM's cache by the time it starts on the weights: read their total then.
  let total: number | undefined;
  let lookedUp = false;
  const inBytes = byteProgress(() => total);
  try {
    engine = await CreateMLCEngine(source.modelId, {
      appConfig,
      logLevel: 'WARN',
      initProgressCallback: (r) => {
        if (!lookedUp && /^(Start to fetch params|Fetching param cache|Loading model from cache)/.test(r.text)) {
          lookedUp = true;
          void cachedManifestBytes(source.modelId, appConfig).then((bytes) => (total = bytes), () => undefined);
        }
        onProgress(inBytes(r));
      },
    });
  } catch (cause) {
    throw loadError(source.modelId, cause);
  }
  const record = appConfig.model_list.find((m) => m.model_id === source.modelId);
  const contextWindow = record?.overrides?.context_window_size ?? DEFAULT_CONTEXT_WINDOW;
  return { engine: webllmEngine(engine), contextWindow, configTemplate: configTemplateName(loadedChatConfig(engine, source.modelId)) };
}

/**
 * The chat config WebLLM loaded for the model: its parsed mlc-chat-config.json
 * with the model record's overrides, as MLCEngine 0.2.86 keeps it
 * (`loadedModelIdToChatConfig`, private in its types) and renders with. Read
 * there rather than from WebLLM's cache, whose layout differs under each of
 * its four cache backends. Undefined if a later WebLLM keeps it elsewhere.
 */
function loadedChatConfig(engine: MLCEngine, modelId: string): unknown {
  const configs = (engine as unknown as { loadedModelIdToChatConfig?: unknown }).loadedModelIdToChatConfig;
  return configs instanceof Map ? configs.get(modelId) : undefined;
}

/**
 * The weights' size from the model's tensor-cache.json, as WebLLM 0.2.86
 * caches it (Cache API 'webllm/model', keyed by its URL next to the model's
 * `resolve/main/`). Undefined under another cache backend.
 */
async function cachedManifestBytes(modelId: string, appConfig: AppConfig): Promise<number | undefined> {
  const record = appConfig.model_list.find((m) => m.model_id === modelId);
  if (!record || typeof caches === 'undefined' || !(await caches.has(MODEL_CACHE))) return undefined;
  const response = await (await caches.open(MODEL_CACHE)).match(manifestUrl(cleanModelUrl(new URL(record.model, location.href).href)));
  return response ? manifestBytes(await response.json()) : undefined;
}

/** Whether the model's files are in WebLLM's browser cache. */
export async function isCached(source: WebLLMSource): Promise<boolean> {
  return hasModelInCache(source.modelId, appConfigFor(source));
}

/** Remove the model's weights, library and config from WebLLM's browser cache. */
export async function deleteCached(source: WebLLMSource): Promise<void> {
  const appConfig = appConfigFor(source);
  try {
    await deleteModelInCache(source.modelId, appConfig);
  } catch (error) {
    // WebLLM finds the weight shards through their manifest, which it fetches
    // when it is not cached: a failed fetch means no manifest, so no shards to find.
    if (!(error instanceof TypeError)) throw error;
  }
  await deleteModelWasmInCache(source.modelId, appConfig);
  await deleteChatConfigInCache(source.modelId, appConfig);
}

/** @internal Exported for its unit test, with a stand-in MLCEngine. */
export function webllmEngine(engine: Pick<MLCEngine, 'chat' | 'interruptGenerate' | 'unload' | 'getMessage'>): Engine {
  // An interrupt that lands before WebLLM starts decoding could be lost, so it
  // is repeated on every chunk until the stream ends.
  let stopping = false;
  return {
    async complete(request: EngineRequest, onDelta): Promise<EngineResult> {
      stopping = false;
      let chunks;
      try {
        chunks = await engine.chat.completions.create({ ...request, messages: request.messages.map(toWebLLM), stream: true, stream_options: { include_usage: true } });
      } catch (cause) {
        throw generationError(cause);
      }
      let text = '';
      let finish: string | null = null;
      let usage: { prompt_tokens: number; completion_tokens: number; extra?: { prefill_tokens_per_s?: number; decode_tokens_per_s?: number } } | undefined;
      try {
        for await (const chunk of chunks) {
          if (stopping) void engine.interruptGenerate();
          const choice = chunk.choices[0];
          const delta = choice?.delta?.content;
          if (delta) {
            text += delta;
            onDelta(delta);
          }
          if (choice?.finish_reason) finish = choice.finish_reason;
          if (chunk.usage) usage = chunk.usage;
        }
        if (request.stop?.length) {
          // WebLLM streams the first half of a stop string split across tokens before it
          // knows, then cuts it from its message: what it kept is the reply (and its KV's turn).
          const kept = await engine.getMessage();
          if (text.startsWith(kept)) text = kept;
        }
      } catch (cause) {
        throw generationError(cause);
      }
      return {
        text,
        finishReason: finish === 'length' ? 'length' : finish === 'abort' ? 'abort' : 'stop',
        usage: {
          promptTokens: usage?.prompt_tokens ?? 0,
          completionTokens: usage?.completion_tokens ?? 0,
          prefillTokensPerSecond: usage?.extra?.prefill_tokens_per_s,
          decodeTokensPerSecond: usage?.extra?.decode_tokens_per_s,
        },
      };
    },
    interrupt() {
      stopping = true;
      void engine.interruptGenerate();
    },
    unload: () => engine.unload(),
  };
}

interface MinimalGpu {
  requestAdapter(options?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<{ features: ReadonlySet<string> } | null>;
}

function toWebLLM(message: EngineMessage): ChatCompletionMessageParam {
  // WebLLM ignores tool_call_id; the codec has already placed each result.
  return message.role === 'tool' ? { role: 'tool', content: message.content, tool_call_id: '' } : { role: message.role, content: message.content };
}

/** Fail fast, before any download, when this browser cannot run the model. */
async function checkGpu(modelId: string): Promise<void> {
  const gpu = (navigator as Navigator & { gpu?: MinimalGpu }).gpu;
  if (!gpu) throw new WebGPUUnavailableError('navigator.gpu is missing (this browser or context has no WebGPU)');
  let adapter: { features: ReadonlySet<string> } | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (cause) {
    throw new WebGPUUnavailableError(`requesting a GPU adapter failed: ${messageOf(cause)}`);
  }
  if (!adapter) throw new WebGPUUnavailableError('no GPU adapter is available');
  // WebLLM marks few f16 models as needing shader-f16, so check every f16 build.
  if (/f16/.test(modelId) && !adapter.features.has('shader-f16')) {
    throw new ShaderF16UnsupportedError(modelId, modelId.replace(/f16/, 'f32'));
  }
}

function appConfigFor(source: WebLLMSource): AppConfig {
  // tabagent's own declaration of WebLLM's AppConfig shape (WebLLMAppConfig); WebLLM checks the object itself.
  if (source.appConfig) return source.appConfig as AppConfig;
  const prebuilt = prebuiltAppConfig.model_list.find((m) => m.model_id === source.modelId);
  if (!source.modelUrl) {
    if (!prebuilt) {
      throw new ModelLoadError({ modelId: source.modelId, reason: 'not a WebLLM prebuilt model id; pass appConfig (or modelUrl and modelLib) for a self-hosted model', retryable: false });
    }
    return prebuiltAppConfig;
  }
  const modelLib = source.modelLib ?? prebuilt?.model_lib;
  if (!modelLib) throw new ModelLoadError({ modelId: source.modelId, reason: 'modelLib is required for a self-hosted model outside the prebuilt list', retryable: false });
  const record: ModelRecord = { ...prebuilt, model: source.modelUrl, model_id: source.modelId, model_lib: modelLib };
  return { ...prebuiltAppConfig, model_list: [record] };
}

/** WebLLM errors that no retry can fix: the model or its configuration is wrong. */
const PERMANENT = new Set(['ModelNotFoundError', 'MissingModelWasmError', 'UnsupportedModelIdError', 'ConfigValueError', 'InvalidResponseFormatError']);

function loadError(modelId: string, cause: unknown): Error {
  const name = (cause as { name?: string })?.name ?? '';
  const message = messageOf(cause);
  if (name === 'WebGPUNotAvailableError' || name === 'WebGPUNotFoundError' || /compatible GPU/.test(message)) {
    return new WebGPUUnavailableError(message);
  }
  if (name === 'ShaderF16SupportError') return new ShaderF16UnsupportedError(modelId, modelId.replace(/f16/, 'f32'));
  if (isDeviceLoss(cause)) return new DeviceLostError(`${message} (while loading ${modelId}; a smaller model may fit)`, { cause });
  // Network failures, interrupted downloads and corrupt files (a cached file
  // that does not parse or compile) can succeed on retry, after
  // deleteCachedModel for the corrupt ones. A model WebLLM does not know cannot.
  const retryable = !PERMANENT.has(name);
  return new ModelLoadError({ modelId, reason: message, retryable }, { cause });
}
