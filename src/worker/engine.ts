// The boundary WebLLM's engine exposes, reduced to what tabagent uses. The
// WebLLM adapter and the fake model both implement it, inside the worker.
import type { FinishReason, ModelUsage } from '../shared/model.js';
import type { EngineMessage, ResponseFormat } from '../shared/tool-protocol.js';

/** An OpenAI-style chat completion request, as WebLLM takes it. */
export interface EngineRequest {
  messages: EngineMessage[];
  response_format?: ResponseFormat;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  seed?: number;
  extra_body?: { enable_thinking?: boolean };
}

export interface EngineResult {
  text: string;
  finishReason: FinishReason;
  usage: ModelUsage;
}

export interface Engine {
  /** Generate, streaming each piece of text to `onDelta`. */
  complete(request: EngineRequest, onDelta: (delta: string) => void): Promise<EngineResult>;
  /** Stop the generation in progress (engine-wide, as in WebLLM); it resolves with finishReason 'abort'. */
  interrupt(): void;
  unload(): Promise<void>;
}

/**
 * The engines, each loaded only when a model needs it (engine-modules.ts): a
 * worker running WebLLM never fetches the fake engine and its xgrammar, one
 * running the fake never fetches WebLLM.
 */
export interface EngineModules {
  webllm(): Promise<typeof import('./webllm-engine.js')>;
  fake(): Promise<typeof import('./fake/fake-module.js')>;
}
