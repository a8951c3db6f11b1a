import { TabAgentError, codeGuard } from './base.js';

/**
 * Why an OAuth redirect back to the page could not be finished:
 * - `'state'`: the callback's `state` matches no authorization this page
 *   started (an old, replayed or forged callback, or storage was cleared);
 * - `'denied'`: the authorization server sent back an `error` (the person
 *   declined, say) instead of a code;
 * - `'exchange'`: the token endpoint refused the code (used, expired, not
 *   this client's) or could not be reached.
 */
export type McpAuthFailure = 'state' | 'denied' | 'exchange';

/** `finishMcpAuth` could not turn the authorization server's redirect into tokens. */
export class McpAuthError extends TabAgentError {
  override readonly name = 'McpAuthError';
  readonly code = 'MCP_AUTH_FAILED';
  readonly failure: McpAuthFailure;
  /** The MCP server the authorization was for (unknown when `failure` is `'state'`). */
  readonly serverUrl?: string;
  /** The OAuth error code (`access_denied`, `invalid_grant`…), when the server gave one. */
  readonly oauthError?: string;

  constructor(fields: { failure: McpAuthFailure; detail: string; serverUrl?: string; oauthError?: string; cause?: unknown }) {
    super(`Cannot finish the MCP authorization${fields.serverUrl ? ` for ${fields.serverUrl}` : ''}: ${fields.detail}`, { cause: fields.cause });
    this.failure = fields.failure;
    if (fields.serverUrl !== undefined) this.serverUrl = fields.serverUrl;
    if (fields.oauthError !== undefined) this.oauthError = fields.oauthError;
  }
}

export const isMcpAuthError = codeGuard<McpAuthError>('MCP_AUTH_FAILED');
