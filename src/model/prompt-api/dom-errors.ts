// The Prompt API's DOMExceptions as tabagent's typed errors. Names from the
// spec (webmachinelearning/prompt-api index.bs at 2e27365, "Errors" and the
// create/prompt algorithms) and its explainer (QuotaExceededError with
// `requested` and `quota`; NetworkError when the download fails).
import { ContextOverflowError, EngineUnavailableError, isContextOverflowError, ModelError, ModelLoadError } from '../../errors/index.js';
import { messageOf } from '../../errors/message-of.js';
import { CHROME_BUILTIN } from './chrome-builtin.js';

function nameOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string' ? (error as { name: string }).name : undefined;
}

/** An abort: the caller's signal, or a destroyed session's; passed on as it is. */
export function isAbort(error: unknown): boolean {
  return nameOf(error) === 'AbortError';
}

/** Past the session's window: the API's QuotaExceededError carries what was asked and what fits. */
export function overflowError(error: unknown, contextWindow: number): ContextOverflowError {
  const { requested, quota } = error as { requested?: unknown; quota?: unknown };
  const window = typeof quota === 'number' && Number.isFinite(quota) ? quota : contextWindow;
  return new ContextOverflowError({ promptTokens: typeof requested === 'number' ? requested : window, reservedTokens: 0, contextWindow: window });
}

/** A failure of `LanguageModel.create()`. */
export function createError(error: unknown, contextWindow = 0): unknown {
  const name = nameOf(error);
  if (name === 'AbortError') return error;
  if (name === 'QuotaExceededError') return overflowError(error, contextWindow);
  if (name === 'NotSupportedError') return new EngineUnavailableError('prompt-api', CHROME_BUILTIN, `the browser's model cannot run these options (${messageOf(error)})`, { cause: error });
  if (name === 'NotAllowedError') return new EngineUnavailableError('prompt-api', CHROME_BUILTIN, `the browser does not allow its model here (permissions policy "language-model", or the user's choice)`, { cause: error });
  const retryable = name === 'NetworkError' || name === 'OperationError' || name === 'UnknownError';
  return new ModelLoadError({ modelId: CHROME_BUILTIN, reason: `${name ?? 'Error'}: ${messageOf(error)}`, retryable }, { cause: error });
}

/** A failure of `prompt()`, `promptStreaming()`, `append()` or `measureContextUsage()`. */
export function promptError(error: unknown, contextWindow: number): unknown {
  const name = nameOf(error);
  // Already typed: the window checked before sending.
  if (name === 'AbortError' || isContextOverflowError(error)) return error;
  if (name === 'QuotaExceededError') return overflowError(error, contextWindow);
  return new ModelError(messageOf(error), { cause: error, engineError: name });
}
