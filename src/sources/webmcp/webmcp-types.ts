// What an app names of WebMCP: the page's tools taken in (webMcpTools'
// options, a tool's description, the source) and a chat's tools offered out
// (registerWebMcpTools' options). Apart from the loaders (webmcp-tools.ts,
// register-webmcp-tools.ts), so the modules they load take these types from
// here and not from the module that loads them.
import type { ToolHooks } from '../../calls/hooks.js';
import type { ErrorPolicy, ToolSource } from '../../tools/types.js';

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

export interface RegisterWebMcpToolsOptions extends Pick<ToolHooks, 'approve' | 'beforeToolCall'> {
  /**
   * Decides on the browser agent's calls to tools with `needsApproval` (it is
   * asked as a chat's `approve` is). Required when one of the tools may need
   * approval: no person answers a browser agent's call through tabagent.
   */
  approve?: ToolHooks['approve'];
  /** Unregisters the tools when it aborts (as calling the returned function does). */
  signal?: AbortSignal;
}
