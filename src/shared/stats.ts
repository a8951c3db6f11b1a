// What a run cost, in one plain type every layer may name (errors carry it too).

export interface ReplyStats {
  /** Model → tools → model round trips in this run. */
  hops: number;
  /** Tool handlers run. */
  toolCalls: number;
  /** Model generations. */
  modelCalls: number;
  /** Prompt tokens the model had to read (WebLLM counts only what its KV cache did not hold). */
  promptTokens: number;
  completionTokens: number;
  /** Wall time waiting for the model, and running tools. */
  modelMs: number;
  toolMs: number;
  /** Of the last generation, when the model reports it. */
  prefillTokensPerSecond?: number;
  decodeTokensPerSecond?: number;
}
