// Types of chat-server.mjs, for the TypeScript tests that start it.
export interface ChatServerState {
  /** Every request body, in order, as the server got it (OpenAI chat-completions). */
  requests: Array<{ model: string; messages: Array<{ role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }>; tools?: unknown[]; [key: string]: unknown }>;
}

export interface ChatServer {
  origin: string;
  /** The API's base URL (`…/v1`), as providers take it. */
  url: string;
  state: ChatServerState;
  control(what: 'reset'): void;
  close(): Promise<void>;
}

export function startChatServer(options?: { port?: number; host?: string; key?: string }): Promise<ChatServer>;
