import { TabAgentError, codeGuard } from './base.js';

/**
 * The agent has no model to run: none was asked for (`agent.load(model)`), or
 * the last load was cancelled. A load that failed rejects with its own error
 * (ModelLoadError, WebGPUUnavailableError, …) instead.
 */
export class ModelNotLoadedError extends TabAgentError {
  override readonly name = 'ModelNotLoadedError';
  readonly code = 'MODEL_NOT_LOADED';

  constructor(message = 'No model is loaded: call agent.load(model) first.') {
    super(message);
  }
}

export const isModelNotLoadedError = codeGuard<ModelNotLoadedError>('MODEL_NOT_LOADED');
