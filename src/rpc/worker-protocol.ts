// The worker protocol: what the worker exposes over comlink (WorkerApi), its
// ready message, and every plain-data message and type that crosses between
// the page and the worker, in one module that both sides import and that
// imports neither side's internals.
import type { CallInputEvent, LoadProgress, ModelInfo, ModelMessage, ModelRequest, ModelResponse } from '../shared/model.js';
import type { EngineMessage, ModelFamily, ResponseFormat, ToolDeclaration } from '../shared/tool-protocol.js';
import type { WebLLMSource } from '../webllm/app-config.js';
import type { WireError } from './error-transfer.js';

/**
 * What the worker exposes over comlink. The page starts the worker, waits for
 * READY, connects the generation channel, loads one model, then generates.
 */
export interface WorkerApi {
  /** Liveness: the page pings while it waits on a generation. */
  ping(): true;
  /**
   * The port generations go on (generation-channel.ts): requests and cancels
   * in, what each writes and its end out. `client`: in a shared worker, the
   * name of a Web Lock this client holds while it lives; once the lock is
   * free, the client has left.
   */
  connect(port: MessagePort, client?: string): void;
  /**
   * Load the worker's model, in place of any before it (loads run one at a
   * time). `onProgress` and `respond` (a fake's function script) are
   * comlink-proxied from the page.
   */
  load(spec: ModelSpec, onProgress?: (progress: LoadProgress) => void, respond?: Respond): Promise<EngineInfo>;
  /** Ask about, or delete, a model's downloaded files in the browser (with any model loaded, or none). */
  modelCache(action: 'has' | 'delete', source: CachedModelSource): Promise<boolean>;
}

/** What a worker tells of the model it loaded; the page adds where that worker runs (a worker of its own, or a shared one). */
export type EngineInfo = Omit<ModelInfo, 'host'>;

/** The worker posts this once its comlink endpoint is listening. */
export const READY = { tabagent: 'ready' } as const;

export function isReady(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { tabagent?: unknown }).tabagent === 'ready';
}

/**
 * A shared worker posts this to every tab when it dies of an uncaught error
 * (which reaches no page's error event, as a dedicated worker's does), then ends.
 */
export interface Crashed {
  tabagent: 'crashed';
  reason: string;
}

export function isCrashed(data: unknown): data is Crashed {
  return typeof data === 'object' && data !== null && (data as { tabagent?: unknown }).tabagent === 'crashed';
}

/** A fake model's function script, called from the worker for each generation. */
export type Respond = (request: FakeRequest) => Promise<FakeOutput>;

/**
 * What the page asks the worker to load: plain data. (The fake's script
 * function travels as its own argument: comlink proxies only top-level ones.)
 */
/** Whose cache a model's files are in: WebLLM's (by its source), or wllama's (a GGUF by URL). */
export type CachedModelSource = ({ kind: 'webllm' } & WebLLMSource) | { kind: 'gguf'; url: string };

/** A GGUF model's window when the app names none: its trained window, at most this (KV-cache memory grows with it). */
export const DEFAULT_GGUF_CONTEXT = 4096;

/** The largest contextSize that can be a window: llama.cpp's n_ctx is a C int (2 ** 32 + 512 wrapped around to 512). */
export const MAX_GGUF_CONTEXT = 2 ** 31 - 1;

/**
 * A GGUF model for wllama: by URL (downloaded once, then read from the
 * browser's cache) or as a Blob (a file the person picked).
 */
export interface GgufSpec {
  kind: 'gguf';
  modelId: string;
  url?: string;
  blob?: Blob;
  /** The call format; default: from the curated list, else read from the model's chat template. */
  family?: ModelFamily;
  grammar?: boolean;
  /** Tokens the KV cache holds (llama.cpp's n_ctx); default: the model's trained window, at most 4096. */
  contextSize?: number;
  /** CPU threads; default: half the cores where the page is cross-origin isolated, else 1. */
  threads?: number;
  /** The model thinks (writes a think block) unless thinking is off; default: the curated list's word, else Qwen3's family. */
  thinks?: boolean;
  /** A Jinja chat template in place of the GGUF's own (for a GGUF that has none). */
  chatTemplate?: string;
}

export type ModelSpec =
  /** `fallback`: the GGUF model to run on the CPU where this browser cannot run the WebLLM model (no WebGPU, no shader-f16). */
  | ({ kind: 'webllm'; family?: ModelFamily; grammar?: boolean; fallback?: GgufSpec } & WebLLMSource)
  | GgufSpec
  /** A fake model; `outputs` for a list script (it then runs wholly in the worker), else its function comes separately. */
  | {
      kind: 'fake';
      modelId: string;
      /** Default: from the model id, as for WebLLM. */
      family?: ModelFamily;
      /** The MLC conversation template its mlc-chat-config.json names (it renders with it, as WebLLM would); default: the table's for the model id. */
      template?: string;
      contextWindow: number;
      grammar: boolean;
      tokenDelayMs: number;
      outputs?: FakeOutput[];
      recordRequests: boolean;
      firstTurn: number;
      load?: FakeLoad;
    };

/** A fake model's scripted load (see FakeModelOptions.load). */
export interface FakeLoad {
  ms?: number;
  bytes?: number;
  fail?: string;
}

export type FakeModelSpec = Extract<ModelSpec, { kind: 'fake' }>;

/** One request as the fake model received it: the conversation exactly as a real model would read it. */
export interface FakeRequest {
  /** 0 for the model's first generation, then 1, 2, … */
  turn: number;
  /** Rendered messages: the system prompt with tool declarations, tool results as the family writes them. */
  messages: EngineMessage[];
  /** The whole prompt as WebLLM renders it with the model's conversation template, up to the reply header. */
  prompt: string;
  /** Tokens prefilled for this request: the new message only when the KV cache was reused, else the whole prompt. */
  promptTokens: number;
  /** WebLLM would have reused its KV cache (the conversation before the last message is the one it holds). */
  reusedCache: boolean;
  /** The grammar constraint WebLLM would have been given, if any. */
  responseFormat?: ResponseFormat;
  maxTokens?: number;
  temperature?: number;
  /** The stop strings WebLLM would have been given, if any. */
  stop?: string[];
  /** `extra_body.enable_thinking`, when the request set it. */
  thinking?: boolean;
  /** The content of the last message (the user's text, or the tool results): usually what a script reacts to. */
  last: string;
}

/** Raw model output, or output with options. */
export type FakeOutput =
  | string
  | {
      text: string;
      /** Delay before each token, to make generation slow enough to watch or abort. */
      tokenDelayMs?: number;
      /**
       * After streaming `text`, fail the way a real model or browser can:
       * `'model-error'` (the model throws), `'device-lost'` (the GPU goes away),
       * `'worker-crash'` (the worker dies with an uncaught error), `'worker-hang'`
       * (the worker stops answering).
       */
      fault?: FakeFault;
    };

export type FakeFault = 'model-error' | 'device-lost' | 'worker-crash' | 'worker-hang';

/**
 * A request as it crosses the generation port (request-wire.ts): its tool
 * list numbered, with the declarations only the first time; its messages as
 * `keep` of list `base` (one the worker holds) and what follows, numbered as
 * a list of their own. Each end keeps the last KEPT_LISTS lists of each kind.
 */
export type WireRequest = Omit<ModelRequest, 'tools' | 'messages'> & {
  tools: { list: number; declarations?: readonly ToolDeclaration[] };
  messages: { list: number; base?: number; keep: number; append: ModelMessage[] };
};

/** Lists of each kind each end of a generation port keeps (a tab's chats, and the tool subsets prepareStep makes active). */
export const KEPT_LISTS = 8;

/** What the page sends on the generation port (generation-channel.ts). */
export type GenerationCall =
  /** `callInputs`: tell calls as they are written; unasked, the worker neither reads nor sends them. */
  | { kind: 'generate'; id: number; request: WireRequest; callInputs: boolean }
  | { kind: 'cancel'; id: number };

/** What the worker sends back on it, for one generation; `end` or `failed` comes last. */
export type GenerationMessage =
  | { id: number; kind: 'text'; delta: string }
  /** Reasoning (a think block) as the model writes it. */
  | { id: number; kind: 'reasoning'; delta: string }
  /** A call as the model writes it (provisional). */
  | { id: number; kind: 'call-input'; event: CallInputEvent }
  /** What a fake model received (real models send none). */
  | { id: number; kind: 'request'; request: FakeRequest }
  | { id: number; kind: 'end'; response: ModelResponse }
  | { id: number; kind: 'failed'; error: WireError };
