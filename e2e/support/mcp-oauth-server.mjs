// A real MCP server behind real OAuth, for tabagent's tests, on two origins
// other than the page's:
// - the authorization server is the MCP TypeScript SDK's own (v1's
//   mcpAuthRouter: metadata, dynamic client registration, /authorize, /token
//   with its PKCE check, /revoke) over the SDK's demo in-memory provider,
//   which approves every request at once (no login page) and redirects back
//   with a code;
// - the MCP server (the v2 SDK's, stateless Streamable HTTP) refuses requests
//   without a valid bearer token (the v2 SDK's requireBearerAuth: 401 with a
//   WWW-Authenticate challenge) and serves its protected resource metadata
//   (RFC 9728), as MCP's authorization spec asks.
//   node e2e/support/mcp-oauth-server.mjs --port 4192 --auth-port 4193
// MCP server endpoints:
//   /mcp      the server: one tool, `read_note`
//   /state    GET: authorizations started, tokens that work, tool calls
//   /control  POST ?do=revoke-tokens (every token stops working)
//                  ?do=expire-tokens (every token is past its expiry)
//                  ?do=refuse-scope (every token is refused as too narrow: 403
//                     insufficient_scope asking for `notes:admin`, which it never grants)
//                  ?do=reset
// A client registered beforehand: `notes-app` (public, no secret), with the
// e2e harness and the unit tests' page as redirect URIs.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createOAuthMetadata, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { McpServer, OAuthError, OAuthErrorCode, WebStandardStreamableHTTPServerTransport, getOAuthProtectedResourceMetadataUrl, oauthMetadataResponse, requireBearerAuth } from '@modelcontextprotocol/server';
import { z } from 'zod';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
};
const NO_RATE_LIMIT = { rateLimit: false };

const listen = (server, port, host) => new Promise((resolve) => server.listen(port, host, () => resolve(`http://${host}:${server.address().port}`)));

export async function startMcpOAuthTestServer({ port = 0, authPort = 0, host = '127.0.0.1' } = {}) {
  const state = { authorizations: 0, calls: [], refuseScope: false };

  // The authorization server.
  const app = express();
  const authHttp = createServer(app);
  const issuer = await listen(authHttp, authPort, host);
  const http = createServer();
  const origin = await listen(http, port, host);
  const url = `${origin}/mcp`;
  // Tokens only for this MCP server (RFC 8707 resource indicator).
  const provider = new DemoInMemoryAuthProvider((resource) => resource?.href === url);
  const authOptions = { provider, issuerUrl: new URL(issuer), scopesSupported: ['notes:read'] };
  app.use((req, _res, next) => {
    if (req.path === '/authorize') state.authorizations++;
    next();
  });
  await provider.clientsStore.registerClient({ client_id: 'notes-app', client_name: 'Notes', redirect_uris: ['http://app.example/callback', 'http://127.0.0.1:4173/'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' });
  app.use(mcpAuthRouter({ ...authOptions, authorizationOptions: NO_RATE_LIMIT, tokenOptions: NO_RATE_LIMIT, clientRegistrationOptions: NO_RATE_LIMIT, revocationOptions: NO_RATE_LIMIT }));
  const oauthMetadata = createOAuthMetadata(authOptions);

  // The MCP server: a bearer token from that authorization server, for this resource.
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(url));
  const verifier = {
    async verifyAccessToken(token) {
      try {
        return await provider.verifyAccessToken(token);
      } catch (error) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, String(error?.message ?? error));
      }
    },
  };
  const gate = requireBearerAuth({ verifier, resourceMetadataUrl, expectedResource: new URL(url) });
  const newServer = (authInfo) => {
    const server = new McpServer({ name: 'notes', version: '1.0.0' });
    server.registerTool('read_note', { description: 'Read a private note', inputSchema: z.object({ name: z.string() }), annotations: { readOnlyHint: true } }, async ({ name }) => {
      state.calls.push({ tool: 'read_note', name, client: authInfo.clientId });
      return { content: [{ type: 'text', text: `${name}: buy milk` }] };
    });
    return server;
  };
  const handleMcp = async (request) => {
    const authInfo = await gate(request);
    if (authInfo instanceof Response) return authInfo;
    if (state.refuseScope) {
      const challenge = `Bearer error="insufficient_scope", scope="notes:admin", resource_metadata="${resourceMetadataUrl}"`;
      return new Response(JSON.stringify({ error: 'insufficient_scope' }), { status: 403, headers: { 'content-type': 'application/json', 'www-authenticate': challenge } });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await newServer(authInfo).connect(transport);
    return transport.handleRequest(request);
  };
  const control = (what) => {
    if (what === 'revoke-tokens') provider.tokens.clear();
    else if (what === 'expire-tokens') for (const token of provider.tokens.values()) token.expiresAt = Date.now() - 1000;
    else if (what === 'refuse-scope') state.refuseScope = true;
    else if (what === 'reset') {
      Object.assign(state, { authorizations: 0, calls: [], refuseScope: false });
      provider.tokens.clear();
    }
  };

  http.on('request', async (req, res) => {
    try {
      const at = new URL(req.url, origin);
      if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();
      if (at.pathname === '/state') return void res.writeHead(200, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify({ ...state, liveTokens: provider.tokens.size }));
      if (at.pathname === '/control') {
        control(at.searchParams.get('do'));
        return void res.writeHead(200, { ...CORS, 'content-type': 'application/json' }).end('{}');
      }
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const request = new Request(at, { method: req.method, headers: req.headers, body: req.method === 'POST' && chunks.length ? Buffer.concat(chunks) : undefined });
      const response = oauthMetadataResponse(request, { oauthMetadata, resourceServerUrl: new URL(url), scopesSupported: ['notes:read'], resourceName: 'notes' }) ?? (at.pathname === '/mcp' ? await handleMcp(request) : new Response(null, { status: 404 }));
      res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...CORS });
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, CORS);
      res.end(String(error));
    }
  });

  return {
    origin,
    url,
    issuer,
    state,
    control,
    close: () =>
      Promise.all(
        [http, authHttp].map(
          (server) =>
            new Promise((done) => {
              server.closeAllConnections();
              server.close(() => done());
            }),
        ),
      ),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? Number(process.argv[at + 1]) : fallback;
  };
  const { url, issuer } = await startMcpOAuthTestServer({ port: arg('--port', 4192), authPort: arg('--auth-port', 4193) });
  console.log(`MCP server with OAuth on ${url}, its authorization server on ${issuer}`);
}
