import { TabAgentError, codeGuard } from './base.js';

/**
 * Why a call to an MCP server's tool failed:
 * - `tool`: the tool ran and reported an error (`isError`); `message` is its text.
 * - `protocol`: the server answered with a JSON-RPC error (`rpcCode`), or with something that is not MCP.
 * - `connection`: the server could not be reached, refused the request (`httpStatus`), or dropped the session and a new one failed too.
 */
export type McpFailure = 'tool' | 'protocol' | 'connection';

/** A call to a tool of an MCP server (`mcpTools`) failed. The tool's `onError` policy decides what the run does with it. */
export class McpToolError extends TabAgentError {
  override readonly name = 'McpToolError';
  readonly code = 'MCP_TOOL_FAILED';
  readonly serverUrl: string;
  /** The tool's name on the server (the chat may know it by a namespaced name). */
  readonly toolName: string;
  readonly failure: McpFailure;
  /** The server's own words: the tool's error text, or the JSON-RPC error message. */
  readonly detail: string;
  readonly rpcCode?: number;
  readonly httpStatus?: number;

  constructor(fields: { serverUrl: string; toolName: string; failure: McpFailure; detail: string; rpcCode?: number; httpStatus?: number; cause?: unknown }) {
    super(fields.failure === 'tool' ? fields.detail : `MCP server ${fields.serverUrl}: ${fields.detail}`, { cause: fields.cause });
    this.serverUrl = fields.serverUrl;
    this.toolName = fields.toolName;
    this.failure = fields.failure;
    this.detail = fields.detail;
    if (fields.rpcCode !== undefined) this.rpcCode = fields.rpcCode;
    if (fields.httpStatus !== undefined) this.httpStatus = fields.httpStatus;
  }
}

export const isMcpToolError = codeGuard<McpToolError>('MCP_TOOL_FAILED');
