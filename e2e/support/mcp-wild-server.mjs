// An MCP server that lists whatever tools it is given, as other people's
// servers do: any description, any JSON Schema, written out exactly (the
// official SDK's low-level Server, so nothing rewrites them). A call answers
// with the arguments it got. Stateless Streamable HTTP, with CORS.
//   startWildMcpServer({ tools: [{ name, description, inputSchema }] })
import { createServer } from 'node:http';
import { Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version',
};

export function startWildMcpServer({ tools, port = 0, host = '127.0.0.1' }) {
  const state = { calls: [] };
  const newServer = () => {
    const server = new Server({ name: 'wild', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools }));
    server.setRequestHandler('tools/call', (request) => {
      const { name, arguments: args } = request.params;
      state.calls.push({ tool: name, arguments: args });
      return { content: [{ type: 'text', text: JSON.stringify(args ?? {}) }] };
    });
    return server;
  };

  const http = createServer(async (req, res) => {
    try {
      if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();
      const url = new URL(req.url, `http://${req.headers.host}`);
      if (url.pathname !== '/mcp') return void res.writeHead(404, CORS).end();
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const request = new Request(url, { method: req.method, headers: req.headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
      // Stateless: a server and a transport per request.
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await newServer().connect(transport);
      const response = await transport.handleRequest(request);
      res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...CORS });
      res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, CORS);
      res.end(String(error));
    }
  });

  return new Promise((resolve) => {
    http.listen(port, host, () => {
      const { port: bound } = http.address();
      resolve({
        url: `http://${host}:${bound}/mcp`,
        state,
        close: () => new Promise((done) => (http.closeAllConnections(), http.close(() => done()))),
      });
    });
  });
}
