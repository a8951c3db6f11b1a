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
//   (RFC 9728), as MCP's authorization spec asks; CORS and the transport are
//   http-bridge.mjs's and mcp-transport.mjs's.
//   node e2e/support/mcp-oauth-server.mjs --port 4192 --auth-port 4193
// MCP server endpoints:
//   /mcp      the server: one tool, `read_note`
//   /state    GET: authorizations started, tokens that work, tool calls
//   /control  POST ?do=revoke-tokens (every token stops working)
//                  ?do=expire-tokens (every token is past its expiry)
//                  ?do=refuse-scope (every token is refused as too narrow: 403
//                     insufficient_scope asking for `notes:admin`, which it never grants)
//                  ?do=refuse-call-scope (the same, for tool calls only: it connects
//                     and lists its tools with the token, and refuses every call)
//                  ?do=reset
// A client registered beforehand: `notes-app` (public, no secret), with the
// e2e harness and the unit tests' page as redirect URIs.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createOAuthMetadata, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { McpServer, OAuthError, OAuthErrorCode, getOAuthProtectedResourceMetadataUrl, oauthMetadataResponse, requireBearerAuth } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { close, listen, portArg, webListener, withTestRoutes } from './http-bridge.mjs';
import { statelessly } from './mcp-transport.mjs';

const NO_RATE_LIMIT = { rateLimit: false };

export async function startMcpOAuthTestServer({ port = 0, authPort = 0, host = '127.0.0.1' } = {}) {
  const state = { authorizations: 0, calls: [], refuseScope: false, refuseCallScope: false };

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
    if (state.refuseScope || (state.refuseCallScope && (await request.clone().json().catch(() => undefined))?.method === 'tools/call')) {
      const challenge = `Bearer error="insufficient_scope", scope="notes:admin", resource_metadata="${resourceMetadataUrl}"`;
      return new Response(JSON.stringify({ error: 'insufficient_scope' }), { status: 403, headers: { 'content-type': 'application/json', 'www-authenticate': challenge } });
    }
    return statelessly(newServer(authInfo), request);
  };
  const control = (what) => {
    if (what === 'revoke-tokens') provider.tokens.clear();
    else if (what === 'expire-tokens') for (const token of provider.tokens.values()) token.expiresAt = Date.now() - 1000;
    else if (what === 'refuse-scope') state.refuseScope = true;
    else if (what === 'refuse-call-scope') state.refuseCallScope = true;
    else if (what === 'reset') {
      Object.assign(state, { authorizations: 0, calls: [], refuseScope: false, refuseCallScope: false });
      provider.tokens.clear();
    }
  };

  http.on(
    'request',
    webListener(
      withTestRoutes({ state: () => ({ ...state, liveTokens: provider.tokens.size }), control }, async (request) => {
        const metadata = oauthMetadataResponse(request, { oauthMetadata, resourceServerUrl: new URL(url), scopesSupported: ['notes:read'], resourceName: 'notes' });
        return metadata ?? (new URL(request.url).pathname === '/mcp' ? handleMcp(request) : new Response(null, { status: 404 }));
      }),
    ),
  );

  return {
    origin,
    url,
    issuer,
    state,
    control,
    close: () => Promise.all([close(http), close(authHttp)]),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url, issuer } = await startMcpOAuthTestServer({ port: portArg('--port', 4192), authPort: portArg('--auth-port', 4193) });
  console.log(`MCP server with OAuth on ${url}, its authorization server on ${issuer}`);
}
