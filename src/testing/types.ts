import type { ModelFamily } from '../shared/tool-protocol.js';
import type { FakeLoad, FakeOutput, FakeRequest } from '../rpc/worker-protocol.js';

export type { FakeFault, FakeLoad, FakeOutput, FakeRequest } from '../rpc/worker-protocol.js';

/** A list with one output per generation, or a function of the request. */
export type FakeScript = readonly FakeOutput[] | ((request: FakeRequest) => FakeOutput | Promise<FakeOutput>);

export interface FakeModelOptions {
  /**
   * Reported as the model id (default 'fake-model'). A WebLLM prebuilt id makes
   * the fake that model: its tool-call family and conversation template.
   */
  modelId?: string;
  /** Tool-call format the fake model "speaks" (default: from the model id and its template, as for WebLLM; 'hermes' for ids the table does not know). */
  family?: ModelFamily;
  /**
   * The conversation template the fake model's mlc-chat-config.json names
   * (default: the table's for the model id; 'chatml' for ids the table does
   * not know). It renders prompts with it, as WebLLM would, and tabagent takes
   * it as it does a WebLLM model's: over its model table's, the family
   * following it, and a 'model-warning' when the table said otherwise.
   */
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
   * A scripted load, as a download would go: `bytes` "fetched" over `ms`
   * (progress reported in phase 'download', then 'load'), then, with `fail`,
   * a retryable ModelLoadError with that reason. Default: ready at once.
   */
  load?: FakeLoad;
  /**
   * Keep `requests` (default true). Each record is the whole rendered
   * conversation sent back from the worker; benchmarks turn it off, as a real
   * model sends nothing of the kind.
   */
  recordRequests?: boolean;
}
