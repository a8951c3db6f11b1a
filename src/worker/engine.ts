// The boundary the worker's engines share, reduced to what tabagent uses.
// WebLLM and the fake model take the conversation and apply their
// conversation template themselves; wllama takes the whole prompt, rendered
// with the model's own chat template (worker/template-prompt.ts).
import type { FinishReason, ModelUsage } from '../shared/model.js';
import type { EngineMessage, ResponseFormat } from '../shared/tool-protocol.js';

/** How to generate: OpenAI-style fields, as WebLLM takes them. */
export interface Sampling {
  response_format?: ResponseFormat;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  seed?: number;
  /** Stop strings: the engine ends the reply at one and leaves it out of the text (WebLLM's and llama.cpp's `stop`). */
  stop?: string[];
  extra_body?: { enable_thinking?: boolean };
}

/** An OpenAI-style chat completion request, as WebLLM takes it. */
export interface EngineRequest extends Sampling {
  messages: EngineMessage[];
}

/** A completion of a prompt the page's side already rendered (wllama). */
export interface PromptRequest extends Sampling {
  prompt: string;
}

export interface EngineResult {
  text: string;
  finishReason: FinishReason;
  usage: ModelUsage;
}

export interface Engine<Request = EngineRequest> {
  /** Generate, streaming each piece of text to `onDelta`. */
  complete(request: Request, onDelta: (delta: string) => void): Promise<EngineResult>;
  /** Stop the generation in progress (engine-wide, as in WebLLM); it resolves with finishReason 'abort'. */
  interrupt(): void;
  unload(): Promise<void>;
}

/**
 * The engines, each loaded only when a model needs it (engine-modules.ts): a
 * worker running WebLLM never fetches the fake engine and its xgrammar or
 * wllama, one running the fake never fetches WebLLM.
 */
export interface EngineModules {
  webllm(): Promise<typeof import('./webllm-engine.js')>;
  wllama(): Promise<typeof import('./wllama-engine.js')>;
  fake(): Promise<typeof import('./fake/fake-module.js')>;
}
