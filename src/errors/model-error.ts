import { TabAgentError, codeGuard } from './base.js';

/** The model failed while generating (not while loading). */
export class ModelError extends TabAgentError {
  override readonly name = 'ModelError';
  readonly code = 'MODEL_FAILED';
  readonly reason: string;
  /** The engine's own name for the failure (WebLLM's error class, e.g. `ContextWindowSizeExceededError`), when it gave one. */
  readonly engineError: string | undefined;

  constructor(reason: string, options?: { cause?: unknown; engineError?: string }) {
    super(`The model failed: ${reason}`, options);
    this.reason = reason;
    this.engineError = options?.engineError;
  }
}

export const isModelError = codeGuard<ModelError>('MODEL_FAILED');
