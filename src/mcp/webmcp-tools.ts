// `webMcpTools()`: the tools the page (or a script it embeds) registered on
// `document.modelContext` (WebMCP), for a chat to use as its own. This module
// is all the page entry holds of it: the rest (the option checks and the
// feature detection too, and the JSON Schema validator) loads (import()) on
// the first call.
import type { ErrorPolicy, ToolSource } from '../tools/types.js';

/** A page's tool as `document.modelContext.getTools()` describes it. */
export interface WebMcpToolInfo {
  name: string;
  title?: string;
  description: string;
  /** WebMCP's hints: `readOnlyHint` (only reads), `untrustedContentHint` (its results may hold text from people the page does not vouch for). */
  annotations?: { readOnlyHint?: boolean; untrustedContentHint?: boolean };
  /** The origin of the document that registered it. */
  origin?: string;
}

export interface WebMcpToolsOptions {
  /** Put before a tool's name (`page_name`) on a clash with another tool of the chat (default `page`). */
  namespace?: string;
  /** Offer only the tools this returns true for (scripts the page embeds can register tools too). */
  filter?: (tool: WebMcpToolInfo) => boolean;
  /**
   * Ask the chat's `approve` callback (or a person) first. Default: a call
   * needs approval unless the tool says it only reads (`readOnlyHint: true`),
   * as for MCP servers. Give `true` where the page embeds scripts you do not trust.
   */
  needsApproval?: boolean | ((tool: WebMcpToolInfo) => boolean);
  /** What a failed call does to the run (default `'inform'`: the model reads the error). */
  onError?: ErrorPolicy;
  /** Give up on a call after this long (default 60 000 ms): its signal aborts and the call fails with ToolTimeoutError. */
  timeoutMs?: number;
  /**
   * What the model reads of a result, from the text `executeTool` gave (default:
   * JSON stays JSON, an MCP-style `{ content }` result reads as for MCP
   * servers, other text stays text).
   */
  toModel?: (result: string | null, tool: WebMcpToolInfo) => unknown;
}

/** The page's WebMCP tools: put it in a chat's `tools`, beside tools of your own. */
export interface WebMcpTools extends ToolSource {
  /** List the page's tools again (a `toolchange` event does it by itself); rejects with what getTools() rejects with. */
  refresh(): Promise<void>;
  /** Stop following the page's tools: they leave the chats that use them. */
  close(): void;
}

/**
 * The tools registered on `document.modelContext`, kept current as the page
 * registers and unregisters tools. Rejects with WebMcpUnavailableError where
 * the browser has no WebMCP, or no way to list and call the tools from the page.
 * The chat's own tools, offered with `registerWebMcpTools`, are left out.
 */
export async function webMcpTools(options: WebMcpToolsOptions = {}): Promise<WebMcpTools> {
  return (await import('./webmcp-page.js')).pageTools(options);
}
