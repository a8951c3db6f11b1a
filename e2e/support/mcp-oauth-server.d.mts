// Types of mcp-oauth-server.mjs, for the TypeScript tests that start it.
export interface McpOAuthTestState {
  /** Requests to the authorization server's /authorize (each is a redirect of the page). */
  authorizations: number;
  calls: Array<{ tool: string; name: string; client: string }>;
  /** Every token is refused as too narrow (403 insufficient_scope). */
  refuseScope: boolean;
  /** Every tool call is refused so (the token still connects and lists the tools). */
  refuseCallScope: boolean;
}

export interface McpOAuthTestServer {
  origin: string;
  /** The MCP server. */
  url: string;
  /** The authorization server. */
  issuer: string;
  state: McpOAuthTestState;
  control(what: 'revoke-tokens' | 'expire-tokens' | 'refuse-scope' | 'refuse-call-scope' | 'reset'): void;
  close(): Promise<void>;
}

export function startMcpOAuthTestServer(options?: { port?: number; authPort?: number; host?: string }): Promise<McpOAuthTestServer>;
