// Types of mcp-task-server.mjs, for the TypeScript tests that start it.
export interface McpTaskState {
  /** Render jobs that ran to their end. */
  runs: Array<{ tool: string; scene: string }>;
  /** Tasks created (each a tools/call with `task`). */
  tasks: Array<{ taskId: string; tool: string; scene: string }>;
  /** Jobs that saw their task cancelled, and at which step. */
  cancelled: Array<{ taskId: string; scene: string; at: number }>;
  /** Every tools/call, and whether it asked for a task. */
  calls: Array<{ tool: string; asTask: boolean }>;
}

export interface McpTaskServer {
  origin: string;
  url: string;
  state: McpTaskState;
  control(what: 'reset' | 'forget-sessions'): void;
  close(): Promise<void>;
}

export function startMcpTaskServer(options?: { port?: number; host?: string }): Promise<McpTaskServer>;
