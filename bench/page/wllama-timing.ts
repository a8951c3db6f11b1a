// What the two wllama workers share: a completion as tabagent asked for it,
// and how a completion is timed in the worker that calls wllama, the same
// way on both sides (tabagent's worker, wllama-timed-worker.ts, and the
// direct baseline, wllama-direct-worker.ts).
import type { RawCompletionChunk } from '@wllama/wllama';

/** A completion as tabagent asked wllama for it (the fields it sets). */
export interface RecordedCompletion {
  prompt: string;
  grammar?: string;
  max_tokens?: number;
  temperature?: number;
}

/**
 * A completion timed in the worker that called wllama, the same way on both
 * sides: from the call, when the first text arrived, when it returned, and
 * how long the caller's own onData took (tabagent's scanner and posting, or
 * the baseline's posting). The model's time is `returned − inCallback`;
 * from its first text to its last, `lastText − firstText` less the caller's
 * onData in between.
 */
export interface CompletionTimes {
  firstText: number;
  lastText: number;
  returned: number;
  inCallback: number;
  /** The caller's onData time before the first and before the last text arrived. */
  callbackBeforeFirst: number;
  callbackBeforeLast: number;
  /** Chunks with text. */
  pieces: number;
}

export interface CompletionNote {
  completion: RecordedCompletion;
  times: CompletionTimes;
}

/** Wraps a completion's onData to time it (see CompletionTimes); call `done` when the completion returns. */
export function timed(onData: ((chunk: RawCompletionChunk) => void) | undefined) {
  const called = performance.now();
  const times: CompletionTimes = { firstText: NaN, lastText: NaN, returned: NaN, inCallback: 0, callbackBeforeFirst: 0, callbackBeforeLast: 0, pieces: 0 };
  return {
    times,
    onData(chunk: RawCompletionChunk) {
      const at = performance.now();
      if (chunk.choices[0]?.text) {
        if (times.pieces++ === 0) {
          times.firstText = at - called;
          times.callbackBeforeFirst = times.inCallback;
        }
        times.lastText = at - called;
        times.callbackBeforeLast = times.inCallback;
      }
      onData?.(chunk);
      times.inCallback += performance.now() - at;
    },
    done() {
      times.returned = performance.now() - called;
    },
  };
}
