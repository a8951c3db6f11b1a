import { TabAgentError, codeGuard } from './base.js';

/**
 * A shared engine host holds `loaded` for other tabs, and this tab asked it
 * for `requested`: one host serves one model, so it refuses rather than pull
 * the model out from under the others. (Hosts are named for their model, so
 * this means two models' names met.)
 */
export class SharedModelConflictError extends TabAgentError {
  override readonly name = 'SharedModelConflictError';
  readonly code = 'SHARED_MODEL_CONFLICT';
  readonly loaded: string;
  readonly requested: string;

  constructor(loaded: string, requested: string, options?: { cause?: unknown }) {
    super(`The shared model host holds ${loaded} for other tabs; it cannot load ${requested} in its place.`, options);
    this.loaded = loaded;
    this.requested = requested;
  }
}

export const isSharedModelConflictError = codeGuard<SharedModelConflictError>('SHARED_MODEL_CONFLICT');
