// What went wrong with a request to an MCP server, from what the SDK threw:
// the server's own JSON-RPC error, an HTTP refusal, no answer at all, or an
// answer that is not MCP.
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError } from './sdk.js';
import { isMcpAuthError, type McpFailure } from '../../errors/index.js';
import { messageOf } from '../../errors/message-of.js';

export interface Failure {
  failure: Exclude<McpFailure, 'tool'>;
  detail: string;
  rpcCode?: number;
  httpStatus?: number;
}

const CONNECTION_CODES = new Set<string>([SdkErrorCode.NotConnected, SdkErrorCode.ConnectionClosed, SdkErrorCode.SendFailed, SdkErrorCode.RequestTimeout, SdkErrorCode.ClientHttpFailedToOpenStream]);

export function failureOf(error: unknown): Failure {
  if (isMcpAuthError(error)) return { failure: 'connection', detail: error.message };
  if (error instanceof UnauthorizedError) return { failure: 'connection', detail: 'the server asks for authorization (HTTP 401)', httpStatus: 401 };
  if (ProtocolError.isInstance(error)) return { failure: 'protocol', detail: error.message, rpcCode: error.code };
  if (SdkHttpError.isInstance(error)) return { failure: 'connection', detail: `HTTP ${error.status}${error.statusText ? ` ${error.statusText}` : ''}`, httpStatus: error.status };
  if (SdkError.isInstance(error)) return { failure: CONNECTION_CODES.has(error.code) ? 'connection' : 'protocol', detail: error.message };
  // fetch rejects with a TypeError when nothing answers (down, or refused by CORS).
  if (error instanceof TypeError) return { failure: 'connection', detail: `no answer (${error.message})` };
  return { failure: 'protocol', detail: `not an MCP answer (${messageOf(error)})` };
}

/**
 * A request on a session was refused as a server that forgot the session
 * refuses it: 404 (the spec's answer), 400 (the reference server's, and any
 * server built as its example is), 410. A new session may be asked for; a
 * refusal of the request itself comes back on the new one too.
 */
export function sessionGone(error: unknown): boolean {
  return SdkHttpError.isInstance(error) && (error.status === 404 || error.status === 400 || error.status === 410);
}
