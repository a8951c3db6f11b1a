// What a run has done so far (its stats and steps), which its reply shows,
// and its error carries when it fails.
import type { ModelResponse } from '../shared/model.js';
import type { Step } from '../shared/chat.js';
import type { ReplyStats } from '../shared/stats.js';
import type { Landing } from './landing.js';

/** What a run has done so far: also what its error carries when it fails. */
export interface RunRecord {
  stats: ReplyStats;
  steps: Step[];
  /** The last hop's results, as they are written (a hop counts once they land). */
  landing?: Landing;
}

export function emptyStats(): ReplyStats {
  return { hops: 0, toolCalls: 0, modelCalls: 0, promptTokens: 0, completionTokens: 0, modelMs: 0, toolMs: 0 };
}

/** Every run error carries what the run had done: its stats and steps (copies, as they were when the run ended). */
export function withRunRecord(error: unknown, run: RunRecord): unknown {
  if (typeof error === 'object' && error !== null && Object.isExtensible(error)) {
    for (const [key, value] of [['stats', { ...run.stats }], ['steps', [...run.steps]]] as const) {
      if (!Object.hasOwn(error, key)) Object.defineProperty(error, key, { value, enumerable: true, configurable: true });
    }
  }
  return error;
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export function addUsage(stats: ReplyStats, response: ModelResponse, ms: number): void {
  stats.modelCalls++;
  stats.modelMs += ms;
  stats.promptTokens += response.usage.promptTokens;
  stats.completionTokens += response.usage.completionTokens;
  stats.prefillTokensPerSecond = response.usage.prefillTokensPerSecond;
  stats.decodeTokensPerSecond = response.usage.decodeTokensPerSecond;
}
