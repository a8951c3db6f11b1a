// Every tabagent error carries a stable `name` and `code`: class names do not
// survive minifiers and `instanceof` does not survive the worker boundary.
import type { ReplyStats } from '../shared/stats.js';

const MARK = Symbol.for('tabagent.error');

export abstract class TabAgentError extends Error {
  abstract override readonly name: string;
  abstract readonly code: string;
  /** On an error that ended a run (send, sendToolResult, runTool, regenerate): what the run had done so far. */
  declare readonly stats?: ReplyStats;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  // On the prototype, so a copy rebuilt from the class after crossing the worker boundary has it too.
  get [MARK](): true {
    return true;
  }
}

export function isTabAgentError(value: unknown): value is TabAgentError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
}

/** A type guard that checks the error `code`, so it works on errors from any realm or copy. */
export function codeGuard<T extends TabAgentError>(code: T['code']): (value: unknown) => value is T {
  return (value: unknown): value is T =>
    typeof value === 'object' && value !== null && (value as { code?: unknown }).code === code;
}
