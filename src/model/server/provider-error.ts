import { ModelError } from '../../errors/index.js';

/**
 * A provider's failure (an APICallError, an error part) as ModelError with
 * the provider's own message and error name, and nothing else of it: its URL,
 * headers or request may hold the app's API key.
 */
export function providerError(error: unknown): ModelError {
  const { message, name } = (typeof error === 'object' && error !== null ? error : {}) as { message?: unknown; name?: unknown };
  return new ModelError(typeof message === 'string' && message ? message : String(error), typeof name === 'string' ? { engineError: name } : undefined);
}
