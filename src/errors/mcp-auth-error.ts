import { TabAgentError, codeGuard } from './base.js';

/**
 * Why an OAuth authorization could not be finished or started:
 * - `'state'`: the callback's `state` matches no authorization this page
 *   started (an old, replayed or forged callback, or storage was cleared);
 * - `'denied'`: the authorization server sent back an `error` (the person
 *   declined, say) instead of a code;
 * - `'exchange'`: the token endpoint refused the code (used, expired, not
 *   this client's) or could not be reached;
 * - `'attempts'`: the MCP server refused the tokens of the last sign-ins
 *   (3 within 10 minutes, none of which fixed what needed it: connecting, or
 *   a tool call): the page is not sent to sign in again, so a server that
 *   never accepts them cannot loop it.
 */
export type McpAuthFailure = 'state' | 'denied' | 'exchange' | 'attempts';

/** `finishMcpAuth` could not turn the authorization server's redirect into tokens, or `mcpTools` will not send the page to sign in again (`'attempts'`). */
export class McpAuthError extends TabAgentError {
  override readonly name = 'McpAuthError';
  readonly code = 'MCP_AUTH_FAILED';
  readonly failure: McpAuthFailure;
  /** The MCP server the authorization was for (unknown when `failure` is `'state'`). */
  readonly serverUrl?: string;
  /** The OAuth error code (`access_denied`, `invalid_grant`…), when the server gave one. */
  readonly oauthError?: string;
  /** `'attempts'`: the sign-ins the server refused the tokens of. */
  readonly signIns?: number;
  /** `'attempts'`: the scope the refused sign-in would have asked for (a 403 `insufficient_scope` names the one the server wants). */
  readonly scope?: string;

  constructor(fields: { failure: McpAuthFailure; detail: string; serverUrl?: string; oauthError?: string; signIns?: number; scope?: string; cause?: unknown }) {
    super(`MCP authorization${fields.serverUrl ? ` for ${fields.serverUrl}` : ''}: ${fields.detail}`, { cause: fields.cause });
    this.failure = fields.failure;
    if (fields.serverUrl !== undefined) this.serverUrl = fields.serverUrl;
    if (fields.oauthError !== undefined) this.oauthError = fields.oauthError;
    if (fields.signIns !== undefined) this.signIns = fields.signIns;
    if (fields.scope !== undefined) this.scope = fields.scope;
  }
}

export const isMcpAuthError = codeGuard<McpAuthError>('MCP_AUTH_FAILED');
