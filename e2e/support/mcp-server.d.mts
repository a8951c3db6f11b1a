// Types of mcp-server.mjs, for the TypeScript tests that start it.
export interface McpTestState {
  calls: Array<Record<string, unknown>>;
  cancelled: Array<{ tool: string; at: number; reason: string }>;
  deleted: string[];
  weather: boolean;
}

export interface McpTestServer {
  origin: string;
  url: string;
  state: McpTestState;
  control(what: 'add-weather' | 'forget-sessions' | 'forget-sessions-400' | 'reset'): void;
  close(): Promise<void>;
}

export function startMcpTestServer(options?: { port?: number; host?: string }): Promise<McpTestServer>;
