// Types of mcp-wild-server.mjs, for the TypeScript tests that start it.
export interface WildTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface WildMcpServer {
  url: string;
  state: { calls: Array<{ tool: string; arguments: unknown }> };
  close(): Promise<void>;
}

export function startWildMcpServer(options: { tools: WildTool[]; port?: number; host?: string }): Promise<WildMcpServer>;
