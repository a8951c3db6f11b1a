// `registerWebMcpTools(tools)`: a chat's own tools, offered to the browser's
// agent on `document.modelContext` (WebMCP) too, so one tool() definition
// serves the on-device model and the browser's agent alike. This module is
// all the page entry holds of it; the rest, its checks too, loads (import())
// on the first call.
//
// Where the browser has no WebMCP it registers nothing and resolves to a
// function that does nothing: offering tools to an agent that is not there is
// not an error, and an app can call this unconditionally (`'modelContext' in
// document` says whether anything was offered). Taking the page's tools
// (webMcpTools) is another matter: a chat asked for tools it cannot have, so
// that rejects.
import type { ManagedTool } from '../../tools/types.js';
import type { RegisterWebMcpToolsOptions } from './webmcp-types.js';

/**
 * Register `tools` (made with `tool()`) on `document.modelContext`. Resolves
 * to the function that unregisters them (calls under way are aborted).
 * Rejects with DuplicateToolError when the page already has a tool of one of
 * these names (then none is registered), or WebMcpUnavailableError when the
 * browser refuses (a Permissions Policy without "tools").
 */
export async function registerWebMcpTools(tools: readonly ManagedTool[], options: RegisterWebMcpToolsOptions = {}): Promise<() => void> {
  // The option checks and the feature detection load with the rest: most pages never call this.
  return (await import('./webmcp-expose.js')).registerTools(tools, options);
}
