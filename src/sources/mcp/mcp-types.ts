// What an app names of MCP: mcpTools' options (auth, elicitation, tasks),
// the server's tools as a source, a tool's description and result. Apart
// from the loaders (mcp-tools.ts), so the modules they load take these types
// from here and not from the module that loads them.
import type { ErrorPolicy, ToolSource } from '../../tools/types.js';

/**
 * A tool call's result as the server gave it (the SDK's `CallToolResult`).
 * tabagent's types declare what they name of MCP themselves: the SDK's
 * declarations need Node's types, which a browser app's build may not have.
 */
export interface McpCallResult {
  content: Array<{ type: string; [key: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/**
 * The SDK's `OAuthClientProvider` (from `@modelcontextprotocol/client`): any
 * object it takes is one. Declared loosely here for the same reason as
 * McpCallResult; the SDK checks the rest when it uses it.
 */
export interface McpAuthProvider {
  readonly redirectUrl: string | URL | undefined;
  readonly clientMetadata: object;
  clientInformation(...args: never[]): unknown;
  tokens(...args: never[]): unknown;
  saveTokens(...args: never[]): unknown;
  redirectToAuthorization(authorizationUrl: URL): void | Promise<void>;
  saveCodeVerifier(codeVerifier: string): void | Promise<void>;
  codeVerifier(): string | Promise<string>;
}

/** A tool as the server describes it. */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  /** The server's hints: `readOnlyHint`, `destructiveHint` (true when not said), `idempotentHint`, `openWorldHint`. */
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** Whether it is called as a task (MCP 2025-11-25): `'required'`, `'optional'`, or `'forbidden'` (also when not said). */
  taskSupport?: 'forbidden' | 'optional' | 'required';
}

/**
 * A server asks the person for input in the middle of a call (MCP
 * elicitation). Its `message`, field titles and descriptions are the
 * server's words: show them as text.
 * - `'form'`: fields described by `requestedSchema` (a flat object of
 *   strings, numbers, integers, booleans and enums, with `required`,
 *   `default`s and formats);
 * - `'url'`: the person should visit `url` (to sign in elsewhere, or pay);
 *   nothing comes back but whether they agreed to go.
 */
export type McpElicitation =
  | { mode: 'form'; serverUrl: string; message: string; requestedSchema: McpElicitationSchema }
  | { mode: 'url'; serverUrl: string; message: string; url: string; elicitationId: string };

/** The form a server asks to be filled (MCP's restricted JSON Schema). */
export interface McpElicitationSchema {
  type: 'object';
  properties: Record<string, { type?: string; title?: string; description?: string; default?: unknown; enum?: unknown[]; [key: string]: unknown }>;
  required?: string[];
  [key: string]: unknown;
}

/** What the person did: sent the form (or agreed to visit the URL), said no, or dismissed it. */
export type McpElicitationAnswer = { action: 'accept'; content?: Record<string, string | number | boolean | string[]> } | { action: 'decline' } | { action: 'cancel' };

export interface McpToolsOptions {
  /** Headers sent with every request (an API key, say). */
  headers?: Record<string, string>;
  /** A bearer token, or a function that returns the current one (asked before every request). */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /**
   * OAuth: the SDK's `OAuthClientProvider` (from `@modelcontextprotocol/client`).
   * On HTTP 401 it sends the page to the authorization server and
   * `mcpTools` rejects with McpConnectionError (`unauthorized: true`); call
   * `mcpTools` again once the provider holds a token.
   */
  authProvider?: McpAuthProvider;
  /**
   * OAuth with tabagent's provider: client registration, tokens and the PKCE
   * verifier kept in IndexedDB for this server. With no token yet (or one the
   * server refuses and cannot refresh) the page is sent to the authorization
   * server, and `mcpTools` rejects with McpConnectionError (`unauthorized: true`);
   * the page at `redirectUrl` calls `finishMcpAuth()`, then `mcpTools` again.
   */
  oauth?: McpOAuthOptions;
  /**
   * Answer a server that asks the person for input during a call (MCP
   * elicitation, form and URL modes), as `approve` answers for approvals.
   * Without it tabagent does not tell the server it can ask. Fields the
   * answer leaves out get the schema's defaults; an accepted form that does
   * not fit the schema is not sent (the server gets an error saying why).
   * `signal` aborts when the server or the call gives up asking.
   */
  elicit?: (request: McpElicitation, context: { signal: AbortSignal }) => McpElicitationAnswer | Promise<McpElicitationAnswer>;
  /** Put before a tool's name on a clash with another tool of the chat (default: the server's name). */
  namespace?: string;
  /** Offer only the tools this returns true for. */
  filter?: (tool: McpToolInfo) => boolean;
  /**
   * Ask the chat's `approve` callback (or a person) first. Default: from the
   * server's annotations, as MCP defines them: a call needs approval unless the
   * tool is `readOnlyHint: true` or `destructiveHint: false`. The hints are the
   * server's word: give `true` for a server you do not trust.
   */
  needsApproval?: boolean | ((tool: McpToolInfo) => boolean);
  /**
   * Call tools that allow it (`taskSupport: 'optional'`) as tasks too (default
   * false): tools that require it always are. A task's id is kept with the
   * started call, so a call cut off by a reload resumes (`chat.runTool`)
   * waiting for the same task instead of running it again.
   */
  asTasks?: boolean | ((tool: McpToolInfo) => boolean);
  /** What a failed call does to the run (default `'inform'`: the model reads the error, as MCP intends). */
  onError?: ErrorPolicy;
  /** Give up on a call after this long (default 60 000 ms): the server is told (MCP cancellation) and the call fails with ToolTimeoutError. */
  timeoutMs?: number;
  /** What the model reads of a result (default: text as text, structured content as JSON, images and audio described by type and size). */
  toModel?: (result: McpCallResult, tool: McpToolInfo) => unknown;
  /** Give up connecting after this long (default 30 000 ms). */
  connectTimeoutMs?: number;
  /** Abort connecting. */
  signal?: AbortSignal;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

export interface McpOAuthOptions {
  /** The page the authorization server sends the person back to; it calls `finishMcpAuth()`. */
  redirectUrl: string | URL;
  /**
   * What the authorization server is told about the app (RFC 7591): `client_name`
   * (default: the page's title), `scope`, `logo_uri`… `redirect_uris` and the
   * grant are filled in (a public client with PKCE).
   */
  clientMetadata?: Record<string, unknown>;
  /**
   * The HTTPS URL of the app's client metadata document (a Client ID Metadata
   * Document, RFC draft "OAuth Client ID Metadata Document"): used as the
   * client id where the authorization server supports it, instead of
   * registering. The document must list `redirectUrl` in its `redirect_uris`.
   */
  clientMetadataUrl?: string;
  /** A client id registered with the authorization server beforehand (default: dynamic client registration). */
  clientId?: string;
  /**
   * The secret the authorization server gave that client, for a server that
   * will not take a public client. A page cannot keep a secret: anyone who
   * loads it can read this one, so it proves nothing about who is asking.
   */
  clientSecret?: string;
  /** Send the page to the authorization server (default: `location.assign(url)`); e.g. ask first, or open a popup. */
  onRedirect?: (authorizationUrl: URL) => void | Promise<void>;
  /** The IndexedDB database (default `'tabagent-mcp-oauth'`); give `finishMcpAuth` the same. */
  dbName?: string;
}

export interface FinishMcpAuthOptions {
  /** The database `oauth.dbName` named (default `'tabagent-mcp-oauth'`). */
  dbName?: string;
  /** The fetch to use for the token request (default: the global one). */
  fetch?: typeof fetch;
}

/** An MCP server's tools: put it in a chat's `tools`, beside tools of your own. */
export interface McpServerTools extends ToolSource {
  readonly url: string;
  /** The server's name and version, as it gave them. */
  readonly server: { name: string; version: string };
  /** What the server says about using it, if anything (for a system prompt). */
  readonly instructions?: string;
  /** Ask the server for its tools again (servers that send `tools/list_changed` need not be asked). */
  refresh(): Promise<void>;
  /** End the session: its tools leave the chats that use it. */
  close(): Promise<void>;
}
