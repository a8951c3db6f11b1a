import { TabAgentError, codeGuard } from './base.js';
import type { EngineName } from '../shared/model.js';

/**
 * This device or browser cannot run `engine` (no Prompt API, its model
 * `'unavailable'`, a server model the app did not configure): a fallback
 * chain skips it and says why. Thrown before anything is downloaded.
 */
export class EngineUnavailableError extends TabAgentError {
  override readonly name = 'EngineUnavailableError';
  readonly code = 'ENGINE_UNAVAILABLE';
  readonly engine: EngineName;
  readonly modelId: string;
  readonly reason: string;

  constructor(engine: EngineName, modelId: string, reason: string, options?: { cause?: unknown }) {
    super(`${modelId} cannot run here: ${reason}.`, options);
    this.engine = engine;
    this.modelId = modelId;
    this.reason = reason;
  }
}

export const isEngineUnavailableError = codeGuard<EngineUnavailableError>('ENGINE_UNAVAILABLE');
