// The worker protocol: every plain-data message and type that crosses between
// the page and the worker, in one module that both sides import and that
// imports neither side's internals.
import type { EngineMessage, ModelFamily, ResponseFormat } from '../shared/tool-protocol.js';

/**
 * WebLLM's AppConfig shape (@mlc-ai/web-llm 0.2.86), declared here so that
 * tabagent's types never import WebLLM's, whose declarations do not compile on
 * their own (`skipLibCheck: false`). A WebLLM `AppConfig` fits it; the worker
 * hands it to WebLLM as it is.
 */
export interface WebLLMAppConfig {
  model_list: WebLLMModelRecord[];
  cacheBackend?: 'cache' | 'indexeddb' | 'cross-origin' | 'opfs';
  opfsAccessMode?: 'async' | 'sync' | 'auto';
}

/** WebLLM's ModelRecord shape: one model in a WebLLMAppConfig. */
export interface WebLLMModelRecord {
  /** Where the weights are (a Hugging Face repository URL, or your own). */
  model: string;
  model_id: string;
  /** The model's compiled WebGPU library (.wasm). */
  model_lib: string;
  /** WebLLM's ChatOptions; tabagent reads `context_window_size`. */
  overrides?: { context_window_size?: number; [option: string]: unknown };
  vram_required_MB?: number;
  low_resource_required?: boolean;
  buffer_size_required_bytes?: number;
  required_features?: string[];
  /** WebLLM's ModelType: 0 a language model, 1 an embedding model, 2 a vision-language model. */
  model_type?: number;
  integrity?: { config?: string; model_lib?: string; tokenizer?: Record<string, string>; onFailure?: 'error' | 'warn' };
  model_manifest?: string;
}

export interface WebLLMSource {
  modelId: string;
  /** A complete WebLLM AppConfig (self-hosted models); default: WebLLM's prebuilt list. */
  appConfig?: WebLLMAppConfig;
  /** Where self-hosted weights live, for a model otherwise like a prebuilt one. */
  modelUrl?: string;
  /** The model's compiled WebGPU library (.wasm), when `modelUrl` is given for a model not in the prebuilt list. */
  modelLib?: string;
}

/**
 * What the page asks the worker to load: plain data. (The fake's script
 * function travels as its own argument: comlink proxies only top-level ones.)
 */
export type ModelSpec =
  | ({ kind: 'webllm'; family?: ModelFamily; grammar?: boolean } & WebLLMSource)
  /** A fake model; `outputs` for a list script (it then runs wholly in the worker), else its function comes separately. */
  | {
      kind: 'fake';
      modelId: string;
      /** Default: from the model id, as for WebLLM. */
      family?: ModelFamily;
      /** MLC conversation template name; default: from the model id. */
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

export type GenerationMessage =
  | { id: number; kind: 'text'; delta: string }
  /** Reasoning (a think block) as the model writes it. */
  | { id: number; kind: 'reasoning'; delta: string }
  /** What a fake model received (real models send none). */
  | { id: number; kind: 'request'; request: FakeRequest }
  | { id: number; kind: 'end' };
