// An MCP server that lists whatever tools it is given, as other people's
// servers do: any description, any JSON Schema, written out exactly (the
// official SDK's low-level Server, so nothing rewrites them). A call answers
// with the arguments it got. Stateless Streamable HTTP, with CORS
// (mcp-transport.mjs, http-bridge.mjs).
//   startWildMcpServer({ tools: [{ name, description, inputSchema }] })
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/server';
import { close, listen, webListener } from './http-bridge.mjs';
import { statelessly } from './mcp-transport.mjs';

export async function startWildMcpServer({ tools, port = 0, host = '127.0.0.1' }) {
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

  const http = createServer(
    webListener((request) => (new URL(request.url).pathname === '/mcp' ? statelessly(newServer(), request) : new Response(null, { status: 404 }))),
  );
  const origin = await listen(http, port, host);
  return { url: `${origin}/mcp`, state, close: () => close(http) };
}
