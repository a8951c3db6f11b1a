// `webMcpTools()`: the tools the page (or a script it embeds) registered on
// `document.modelContext` (WebMCP), for a chat to use as its own. This module
// is all the page entry holds of it: the rest (the option checks and the
// feature detection too, and the JSON Schema validator) loads (import()) on
// the first call.
import type { WebMcpTools, WebMcpToolsOptions } from './webmcp-types.js';

/**
 * The tools registered on `document.modelContext`, kept current as the page
 * registers and unregisters tools. Rejects with WebMcpUnavailableError where
 * the browser has no WebMCP, or no way to list and call the tools from the page.
 * The chat's own tools, offered with `registerWebMcpTools`, are left out.
 */
export async function webMcpTools(options: WebMcpToolsOptions = {}): Promise<WebMcpTools> {
  return (await import('./webmcp-page.js')).pageTools(options);
}
