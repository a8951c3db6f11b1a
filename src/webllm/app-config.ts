// WebLLM's configuration shapes (@mlc-ai/web-llm 0.2.86), declared here so
// that tabagent's types never import WebLLM's, whose declarations do not
// compile on their own (`skipLibCheck: false`).

/** WebLLM's AppConfig shape. A WebLLM `AppConfig` fits it; the worker hands it to WebLLM as it is. */
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
