import type { ModelFamily } from '../protocol/types.js';
import type { FakeOutput } from '../testing/types.js';
import type { WebLLMSource } from './webllm-engine.js';

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
    };
