import { TabAgentError, codeGuard } from './base.js';

/**
 * `mcpTools` could not connect to an MCP server or list its tools: it is down
 * or unreachable (CORS included), refused the request (`httpStatus`, 401 when
 * it wants authorization), is too slow, or does not speak MCP.
 */
export class McpConnectionError extends TabAgentError {
  override readonly name = 'McpConnectionError';
  readonly code = 'MCP_CONNECTION_FAILED';
  readonly serverUrl: string;
  readonly httpStatus?: number;
  /** The server asked for authorization (HTTP 401, or the OAuth provider's redirect is under way). */
  readonly unauthorized: boolean;

  constructor(fields: { serverUrl: string; detail: string; httpStatus?: number; unauthorized?: boolean; cause?: unknown }) {
    super(`Cannot use the MCP server ${fields.serverUrl}: ${fields.detail}`, { cause: fields.cause });
    this.serverUrl = fields.serverUrl;
    if (fields.httpStatus !== undefined) this.httpStatus = fields.httpStatus;
    this.unauthorized = fields.unauthorized ?? false;
  }
}

export const isMcpConnectionError = codeGuard<McpConnectionError>('MCP_CONNECTION_FAILED');
