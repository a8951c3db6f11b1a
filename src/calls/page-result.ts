// A page's answer to a pending call, as the model will read it: a result, or
// a failure reported the way the `inform` policy would write it.
import { encodeError, encodeResult } from '../tools/encode-result.js';
import type { ToolCall, ToolResultRecord } from '../shared/chat.js';

export interface ToolResultInput {
  callId: string;
  /**
   * Any JSON value; it is what the model reads. `{ error: 'message' }` (that
   * key alone) reports a failed call, as the `inform` policy would.
   */
  result: unknown;
  /** The call failed: `result` is its error message (or the JSON the model reads about it). */
  isError?: boolean;
}

export function pageResult(call: ToolCall, input: ToolResultInput, maxResultChars: number): ToolResultRecord {
  const { result } = input;
  const reported = errorReport(result);
  const isError = input.isError === true || reported !== undefined;
  const message = reported ?? (input.isError && typeof result === 'string' ? result : input.isError && result instanceof Error ? result.message : undefined);
  const content = message !== undefined ? encodeError(message) : encodeResult(result, { toolName: call.name, callId: call.id }, maxResultChars);
  return { callId: call.id, name: call.name, content, isError, status: isError ? 'error' : 'ok' };
}

/** The message of a `{ error: string }` answer (that key alone): a failed call, reported by the page. */
function errorReport(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  const keys = Object.keys(result);
  const error = (result as { error?: unknown }).error;
  return keys.length === 1 && keys[0] === 'error' && typeof error === 'string' ? error : undefined;
}
