// Types of reference-mcp-server.mjs, for the TypeScript tests that start it.
export interface ReferenceServer {
  url: string;
  /** Stop and start again on the same port: every session is forgotten. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export function startReferenceServer(options?: { port?: number }): Promise<ReferenceServer>;
