// `mcpTools(url)`: an MCP server's tools, for a chat to use as its own. This
// module is all the page entry holds of MCP; the option checks, the SDK's
// client and the JSON Schema validator load (import()) on the first call.
import type { FinishMcpAuthOptions, McpServerTools, McpToolsOptions } from './mcp-types.js';

/**
 * Connect to an MCP server (Streamable HTTP) and list its tools. Rejects with
 * McpConnectionError when the server cannot be used.
 */
export async function mcpTools(url: string | URL, options: McpToolsOptions = {}): Promise<McpServerTools> {
  // The option checks load with the client: most pages never call this.
  return (await import('./mcp-server.js')).serverTools(url, options);
}

/**
 * On the page the authorization server sent the person back to
 * (`oauth.redirectUrl`): exchange the code in `callback` (default: this
 * page's URL) for tokens, kept for the server it was asked for. Resolves
 * with that server's URL, for `mcpTools`; rejects with McpAuthError (a state
 * no authorization of this page started, a refusal, a code the server will
 * not take).
 */
export async function finishMcpAuth(callback?: string | URL | URLSearchParams, options: FinishMcpAuthOptions = {}): Promise<{ serverUrl: string }> {
  return (await import('./mcp-oauth-finish.js')).finishAuth(callback ?? location.href, options);
}
