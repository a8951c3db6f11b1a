import type { EngineMessage, ModelFamily, ResponseFormat } from '../protocol/types.js';

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

/** A list with one output per generation, or a function of the request. */
export type FakeScript = readonly FakeOutput[] | ((request: FakeRequest) => FakeOutput | Promise<FakeOutput>);

export interface FakeModelOptions {
  /**
   * Reported as the model id (default 'fake-model'). A WebLLM prebuilt id makes
   * the fake that model: its tool-call family and conversation template.
   */
  modelId?: string;
  /** Tool-call format the fake model "speaks" (default: from the model id; 'hermes' for ids the table does not know). */
  family?: ModelFamily;
  /** MLC conversation template to render prompts with (default: from the model id; 'chatml' for ids the table does not know). */
  template?: string;
  /** Tokens the KV cache holds, prompt and reply together (default 4096, as most prebuilt models). */
  contextWindow?: number;
  /**
   * Constrain calls with a grammar, as for a WebLLM model (default true), and
   * refuse scripted output the grammar would not allow (FakeGrammarError).
   * `false` stands for an engine without constrained decoding.
   */
  grammar?: boolean;
  /** Default delay before each token (default 0). */
  tokenDelayMs?: number;
  /**
   * Keep `requests` (default true). Each record is the whole rendered
   * conversation sent back from the worker; benchmarks turn it off, as a real
   * model sends nothing of the kind.
   */
  recordRequests?: boolean;
}
