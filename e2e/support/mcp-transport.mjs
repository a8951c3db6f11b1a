// Streamable HTTP for the test servers' MCP servers, without sessions or
// with them, over an SDK's web-standard transport: the v2 SDK's unless a
// server brings another (the task server brings v1's, whose McpServer has the
// task runtime). What reaches it is http-bridge.mjs's web Request.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

/** One request to `server` with no session: a transport of its own, answering in JSON. */
export async function statelessly(server, request) {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}

/**
 * A server's MCP sessions. A request without a session id starts one (a
 * server from `newServer`, a transport of its own); one with an id goes to
 * its session; an id not known here (closed, forgotten, never given) is
 * answered `unknownStatus`: 404 as the spec asks.
 */
export class McpSessions {
  #open = new Map();

  constructor(Transport = WebStandardStreamableHTTPServerTransport) {
    this.Transport = Transport;
    this.unknownStatus = 404;
  }

  /** The servers of the sessions open now. */
  servers() {
    return [...this.#open.values()].map(({ server }) => server);
  }

  /** `options` go to the transport's handleRequest (a body already parsed). */
  async handle(request, newServer, options) {
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const session = this.#open.get(id);
      if (!session) return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: this.unknownStatus });
      return session.transport.handleRequest(request, options);
    }
    const server = newServer();
    const transport = new this.Transport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId) => void this.#open.set(sessionId, { transport, server }),
      onsessionclosed: (sessionId) => void this.#open.delete(sessionId),
    });
    await server.connect(transport);
    return transport.handleRequest(request, options);
  }

  /** Closes every session, as a restart does: their ids are unknown from now on. */
  forget() {
    for (const { transport } of this.#open.values()) void transport.close();
    this.#open.clear();
  }
}
