// A real MCP server for tabagent's tests, built with the official SDK
// (@modelcontextprotocol/server), served over Streamable HTTP with sessions
// and CORS (http-bridge.mjs) as a deployment on another origin than the page needs.
//   node e2e/support/mcp-server.mjs --port 4191
// Endpoints:
//   /mcp          the server (tools below)
//   /secure/mcp   the same, only with `Authorization: Bearer secret-token`
//   /garbage/mcp  answers every request with an HTML page (not MCP)
//   /names/mcp    a server with tools named `files/read` and `files_read`
//   /ask/mcp      a server whose `sign_up` asks the person for their name and plan (elicitation)
//   /state        GET: what the tools saw (calls, cancellations, deletions)
//   /control      POST ?do=add-weather (a tool appears: tools/list_changed)
//                      ?do=forget-sessions (as a restart does: old session ids get 404)
//                      ?do=forget-sessions-400 (the same, answered 400 as the reference server does)
//                      ?do=reset
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { close, listen, portArg, webListener, withTestRoutes } from './http-bridge.mjs';
import { McpSessions, statelessly } from './mcp-transport.mjs';

// A 1×1 PNG: what an image result looks like.
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const MCP_PATHS = ['/mcp', '/secure/mcp', '/names/mcp', '/ask/mcp'];

export async function startMcpTestServer({ port = 0, host = '127.0.0.1' } = {}) {
  const state = { calls: [], cancelled: [], deleted: [], weather: false };
  const sessions = new McpSessions();

  const weatherTool = (server) =>
    server.registerTool(
      'weather',
      { description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), annotations: { readOnlyHint: true } },
      async ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }),
    );

  const newServer = () => {
    const server = new McpServer({ name: 'tabagent-test', version: '1.0.0' }, { instructions: 'Tools for tabagent tests.' });
    server.registerTool(
      'add',
      { description: 'Add two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }), annotations: { readOnlyHint: true } },
      async ({ a, b }) => {
        state.calls.push({ tool: 'add', a, b });
        return { content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }], structuredContent: { sum: a + b } };
      },
    );
    server.registerTool(
      'slow_count',
      { description: 'Count slowly, reporting progress', inputSchema: z.object({ steps: z.number().int(), delayMs: z.number().int().optional() }), annotations: { readOnlyHint: true } },
      async ({ steps, delayMs = 100 }, ctx) => {
        state.calls.push({ tool: 'slow_count', steps });
        const token = ctx.mcpReq._meta?.progressToken;
        for (let i = 1; i <= steps; i++) {
          await new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, delayMs);
            ctx.mcpReq.signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('cancelled'))), { once: true });
          }).catch((error) => {
            state.cancelled.push({ tool: 'slow_count', at: i, reason: String(ctx.mcpReq.signal.reason ?? '') });
            throw error;
          });
          if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
        }
        return { content: [{ type: 'text', text: `counted to ${steps}` }] };
      },
    );
    server.registerTool(
      'fail',
      { description: 'A tool that always fails', inputSchema: z.object({}), annotations: { readOnlyHint: true } },
      async () => {
        state.calls.push({ tool: 'fail' });
        return { isError: true, content: [{ type: 'text', text: 'the disk is full' }] };
      },
    );
    server.registerTool(
      'delete_file',
      { description: 'Delete a file', inputSchema: z.object({ path: z.string() }), annotations: { destructiveHint: true } },
      async ({ path }) => {
        state.deleted.push(path);
        return { content: [{ type: 'text', text: `deleted ${path}` }] };
      },
    );
    server.registerTool(
      'snapshot',
      { description: 'Take a picture', inputSchema: z.object({}), annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: 'text', text: 'one pixel' }, { type: 'image', data: PIXEL, mimeType: 'image/png' }] }),
    );
    if (state.weather) weatherTool(server);
    return server;
  };

  // Two tools whose names read the same once made tool names: the slash one listed first.
  const namesServer = () => {
    const server = new McpServer({ name: 'names', version: '1.0.0' });
    server.registerTool('files/read', { description: 'Read a file (by path)', inputSchema: z.object({}), annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: 'text', text: 'files/read' }] }));
    server.registerTool('files_read', { description: 'Read a file (by id)', inputSchema: z.object({}), annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: 'text', text: 'the real files_read' }] }));
    return server;
  };

  // A tool that asks the person mid-call (MCP elicitation): the demo's form.
  const askServer = () => {
    const server = new McpServer({ name: 'sign-up', version: '1.0.0' });
    server.registerTool('sign_up', { description: 'Sign the user up for the newsletter service', inputSchema: z.object({}), annotations: { destructiveHint: false } }, async (_args, ctx) => {
      const answer = await ctx.mcpReq.elicitInput({
        mode: 'form',
        message: 'Which name and plan should the account have?',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', title: 'Your name', minLength: 1 },
            plan: { type: 'string', title: 'Plan', enum: ['basic', 'pro'], default: 'basic' },
            newsletter: { type: 'boolean', title: 'Send me the newsletter', default: false },
          },
          required: ['name'],
        },
      });
      state.calls.push({ tool: 'sign_up', answer });
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: `You did not sign up (${answer.action}).` }] };
      const { name, plan, newsletter } = answer.content;
      return { content: [{ type: 'text', text: `Signed up ${name} for the ${plan} plan${newsletter ? ', with the newsletter' : ''}.` }] };
    });
    return server;
  };

  const handleMcp = async (request, needsToken, newServerFor = newServer) => {
    if (needsToken && request.headers.get('authorization') !== 'Bearer secret-token') {
      return new Response(JSON.stringify({ error: 'unauthorized' }), { status: 401, headers: { 'content-type': 'application/json' } });
    }
    return sessions.handle(request, newServerFor);
  };

  const control = (what) => {
    if (what === 'add-weather' && !state.weather) {
      state.weather = true;
      for (const server of sessions.servers()) weatherTool(server);
    } else if (what === 'forget-sessions' || what === 'forget-sessions-400') {
      // 400 is what the reference server answers a session it forgot.
      sessions.unknownStatus = what === 'forget-sessions' ? 404 : 400;
      sessions.forget();
    } else if (what === 'reset') {
      sessions.unknownStatus = 404;
      Object.assign(state, { calls: [], cancelled: [], deleted: [], weather: false });
      sessions.forget();
    }
  };

  const http = createServer(
    webListener(
      withTestRoutes({ state: () => state, control }, async (request) => {
        const { pathname } = new URL(request.url);
        if (pathname === '/garbage/mcp') return new Response('<html>Not MCP</html>', { headers: { 'content-type': 'text/html' } });
        if (!MCP_PATHS.includes(pathname)) return new Response(null, { status: 404 });
        if (pathname === '/names/mcp') return statelessly(namesServer(), request);
        return handleMcp(request, pathname === '/secure/mcp', pathname === '/ask/mcp' ? askServer : newServer);
      }),
    ),
  );

  const origin = await listen(http, port, host);
  return {
    origin,
    url: `${origin}/mcp`,
    state,
    control,
    close: () => {
      sessions.forget();
      return close(http);
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startMcpTestServer({ port: portArg('--port', 4191) });
  console.log(`MCP test server on ${url}`);
}
