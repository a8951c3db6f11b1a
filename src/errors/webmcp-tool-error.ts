import { TabAgentError, codeGuard } from './base.js';

/**
 * Why a WebMCP tool call failed:
 * - `tool`: the tool ran and failed (it threw, or returned an MCP result with `isError`); `message` is its own text.
 * - `gone`: the tool was unregistered before or while it ran.
 * - `refused`: a chat tool offered with `registerWebMcpTools` did not run: its
 *   arguments were not valid, the app's `approve` said no, or `beforeToolCall` blocked it.
 */
export type WebMcpFailure = 'tool' | 'gone' | 'refused';

/**
 * A call to a page's WebMCP tool (`webMcpTools`) failed, or a browser agent's
 * call to a chat tool offered with `registerWebMcpTools` did.
 */
export class WebMcpToolError extends TabAgentError {
  override readonly name = 'WebMcpToolError';
  readonly code = 'WEBMCP_TOOL_FAILED';
  /** The tool's name on `document.modelContext` (a chat may know it by a namespaced name). */
  readonly toolName: string;
  readonly failure: WebMcpFailure;
  readonly detail: string;

  constructor(fields: { toolName: string; failure: WebMcpFailure; detail: string; cause?: unknown }) {
    super(fields.failure === 'gone' ? `The WebMCP tool "${fields.toolName}" is no longer registered: ${fields.detail}` : fields.detail, { cause: fields.cause });
    this.toolName = fields.toolName;
    this.failure = fields.failure;
    this.detail = fields.detail;
  }
}

export const isWebMcpToolError = codeGuard<WebMcpToolError>('WEBMCP_TOOL_FAILED');
