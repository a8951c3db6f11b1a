import { TabAgentError, codeGuard } from './base.js';

/**
 * WebMCP cannot be used here: the browser has no `document.modelContext`
 * (most browsers today; Chromium only behind its flag or origin trial), no
 * way to list and call the page's tools (`getTools`, `executeTool`), or it
 * refused (a Permissions Policy without "tools", a cross-origin frame).
 */
export class WebMcpUnavailableError extends TabAgentError {
  override readonly name = 'WebMcpUnavailableError';
  readonly code = 'WEBMCP_UNAVAILABLE';
  /** What is missing, when something is: `document.modelContext`, `getTools` or `executeTool`. */
  readonly missing?: 'document.modelContext' | 'getTools' | 'executeTool';

  constructor(fields: { detail: string; missing?: WebMcpUnavailableError['missing']; cause?: unknown }) {
    super(`WebMCP cannot be used: ${fields.detail}`, { cause: fields.cause });
    if (fields.missing !== undefined) this.missing = fields.missing;
  }
}

export const isWebMcpUnavailableError = codeGuard<WebMcpUnavailableError>('WEBMCP_UNAVAILABLE');
