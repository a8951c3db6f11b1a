// OAuth for mcpTools, in this process: the authorization server is the MCP
// SDK's own (e2e/support/mcp-oauth-server.mjs: its router over its demo
// provider, approving at once), the MCP server checks bearer tokens with the
// SDK's requireBearerAuth, and IndexedDB is fake-indexeddb. The page's
// redirect is `onRedirect`, and "the browser" follows it with fetch.
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMcpOAuthTestServer, type McpOAuthTestServer } from '../../../e2e/support/mcp-oauth-server.mjs';
import { isMcpAuthError, isMcpConnectionError, type McpAuthError } from '../../errors/index.js';
import { toolCallText as call } from '../../testing/calls.js';
import { localChat } from '../../test-support/local-chat.js';
import type { ManagedTool } from '../../tools/types.js';
import { IndexedDbOAuthProvider } from './mcp-oauth-provider.js';
import { closeOAuthDatabase } from './mcp-oauth-store.js';
import { finishMcpAuth, mcpTools } from './mcp-tools.js';
import type { McpOAuthOptions, McpServerTools } from './mcp-types.js';

const APP = 'http://app.example/callback';
let server: McpOAuthTestServer;
const opened: McpServerTools[] = [];
let dbName = '';
let n = 0;

beforeAll(async () => {
  server = await startMcpOAuthTestServer();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
  server.control('reset');
  closeOAuthDatabase(dbName);
});
afterAll(() => server.close());

/** The page's options, with the redirects it would make recorded instead. */
function page(extra: Partial<McpOAuthOptions> = {}) {
  dbName = `oauth-test-${++n}`;
  const redirects: URL[] = [];
  const oauth: McpOAuthOptions = { redirectUrl: APP, clientMetadata: { client_name: 'tabagent tests' }, onRedirect: (url) => void redirects.push(url), dbName, ...extra };
  return { oauth, redirects };
}

/** What the browser does at the authorization server: it approves at once and sends the page back. */
async function approve(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return response.headers.get('location')!;
}

async function connect(oauth: McpOAuthOptions): Promise<McpServerTools> {
  const tools = await mcpTools(server.url, { oauth });
  opened.push(tools);
  return tools;
}

async function authorize(oauth: McpOAuthOptions, redirects: URL[]): Promise<McpServerTools> {
  await expect(mcpTools(server.url, { oauth })).rejects.toSatisfy(isMcpConnectionError);
  const callback = await approve(redirects.at(-1)!);
  await expect(finishMcpAuth(callback, { dbName: oauth.dbName })).resolves.toEqual({ serverUrl: server.url });
  return connect(oauth);
}

const failureOf = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as McpAuthError;
  expect(isMcpAuthError(error)).toBe(true);
  return { failure: error.failure, oauthError: error.oauthError, serverUrl: error.serverUrl };
};

// Two real servers and IndexedDB per test on a shared 2-core machine: a generous bound, not a goal.
describe('mcpTools with oauth', { timeout: 20_000 }, () => {
  it('sends the page to the authorization server (registered, PKCE), and after finishMcpAuth a chat uses the protected tool', async () => {
    const { oauth, redirects } = page();
    const refused = await mcpTools(server.url, { oauth }).catch((e: unknown) => e);
    expect(isMcpConnectionError(refused) && refused.unauthorized).toBe(true);
    expect(redirects).toHaveLength(1);
    const asked = redirects[0]!;
    expect(asked.origin + asked.pathname).toBe(`${server.issuer}/authorize`);
    const params = Object.fromEntries(asked.searchParams);
    expect(params).toMatchObject({ response_type: 'code', redirect_uri: APP, code_challenge_method: 'S256', resource: server.url, scope: 'notes:read' });
    expect(params.state).toMatch(/^[0-9a-f]{48}$/);
    expect(params.client_id).toBeTruthy();

    const callback = await approve(asked);
    expect(new URL(callback).origin + new URL(callback).pathname).toBe(APP);
    expect(await finishMcpAuth(callback, { dbName })).toEqual({ serverUrl: server.url });

    const mcp = await connect(oauth);
    expect(mcp.server.name).toBe('notes');
    const { chat } = await localChat([call('read_note', { name: 'shopping' }), 'Buy milk.'], { tools: [mcp] });
    expect((await chat.send('What is on my list?')).text).toBe('Buy milk.');
    // The token the server took was issued to the client the page registered.
    expect(server.state.calls).toEqual([{ tool: 'read_note', name: 'shopping', client: params.client_id }]);
    expect(server.state.authorizations).toBe(1);
  });

  it('after a reload the stored tokens let it in, without a new redirect', async () => {
    const { oauth, redirects } = page();
    await authorize(oauth, redirects);
    await Promise.all(opened.splice(0).map((t) => t.close()));
    closeOAuthDatabase(dbName); // as a reload drops the connection; what was written stays
    const again = await connect({ ...oauth });
    expect(again.tools.map((t) => t.name)).toEqual(['read_note']);
    expect(redirects).toHaveLength(1);
    expect(server.state.authorizations).toBe(1);
  });

  for (const what of ['revoke-tokens', 'expire-tokens'] as const) {
    it(`a token the server no longer takes (${what}) sends the page to authorize again; the chat goes on, and works after`, async () => {
      const { oauth, redirects } = page();
      const mcp = await authorize(oauth, redirects);
      server.control(what);
      const { chat, fake } = await localChat([call('read_note', { name: 'shopping' }), 'I cannot read it now.', call('read_note', { name: 'shopping' }), 'Buy milk.'], { tools: [mcp] });
      expect((await chat.send('What is on my list?')).text).toBe('I cannot read it now.');
      expect(fake.requests[1]!.last).toContain('the server asks for authorization (HTTP 401)');
      expect(redirects).toHaveLength(2);
      expect(server.state.calls).toEqual([]);

      await finishMcpAuth(await approve(redirects[1]!), { dbName });
      expect((await chat.send('And now?')).text).toBe('Buy milk.');
      expect(server.state.calls).toHaveLength(1);
      expect(server.state.authorizations).toBe(2);
    });
  }

  it('a client registered beforehand (clientId) signs in with its id, no registration, and a chat uses the tool', async () => {
    const { oauth, redirects } = page({ clientId: 'notes-app' });
    const mcp = await authorize(oauth, redirects);
    expect(new URL(redirects[0]!).searchParams.get('client_id')).toBe('notes-app');
    const { chat } = await localChat([call('read_note', { name: 'shopping' }), 'Buy milk.'], { tools: [mcp] });
    expect((await chat.send('What is on my list?')).text).toBe('Buy milk.');
    expect(server.state.calls).toEqual([{ tool: 'read_note', name: 'shopping', client: 'notes-app' }]);
  });

  it('a server that keeps refusing the token (scope never granted): three sign-ins, then McpAuthError, not a redirect loop', async () => {
    const { oauth, redirects } = page();
    server.control('refuse-scope');
    // docs/mcp.md's connect(): finish a redirect back, then connect; a refusal sends the page away again.
    const outcomes: string[] = [];
    let followed = 0;
    for (let i = 0; i < 6; i++) {
      if (redirects.length > followed) await finishMcpAuth(await approve(redirects[followed++]!), { dbName });
      const error = await mcpTools(server.url, { oauth }).then(
        (tools) => (opened.push(tools), undefined),
        (e: unknown) => e,
      );
      if (isMcpConnectionError(error) && error.unauthorized) outcomes.push('redirected');
      else {
        outcomes.push(isMcpAuthError(error) ? `McpAuthError ${error.failure}` : String(error));
        break;
      }
    }
    expect(outcomes).toEqual(['redirected', 'redirected', 'redirected', 'McpAuthError attempts']);
    expect(server.state.authorizations).toBe(3);
  });

  it('a server that lists its tools with the token but refuses every call for its scope (403 insufficient_scope): three sign-ins for the call, then the call fails with McpAuthError on every load, no sign-in', async () => {
    const { oauth, redirects } = page();
    server.control('refuse-call-scope');
    // docs/mcp.md's connect() on each load, then the chat calls the tool; the page reloads after each.
    const outcomes: string[] = [];
    let followed = 0;
    let refused: McpAuthError | undefined;
    for (let load = 0; load < 7; load++) {
      if (redirects.length > followed) await finishMcpAuth(await approve(redirects[followed++]!), { dbName });
      const asked = redirects.length;
      const mcp = await mcpTools(server.url, { oauth }).catch((e: unknown) => e);
      if (isMcpConnectionError(mcp) && mcp.unauthorized) outcomes.push('connect: sent to sign in');
      else {
        const tools = mcp as McpServerTools;
        opened.push(tools);
        const readNote = tools.tools[0] as ManagedTool;
        const error = await Promise.resolve(readNote.run({ name: 'shopping' }, { callId: `c${load}`, signal: new AbortController().signal, update: () => undefined, terminate: () => undefined })).then(
          () => undefined,
          (e: unknown) => e,
        );
        if (redirects.length > asked) outcomes.push('call: sent to sign in');
        else if (isMcpAuthError(error)) outcomes.push(`call: McpAuthError ${error.failure}`), (refused = error);
        else outcomes.push(`call: ${String(error)}`);
      }
      await Promise.all(opened.splice(0).map((t) => t.close()));
      closeOAuthDatabase(dbName); // the reload
    }
    expect(outcomes).toEqual(['connect: sent to sign in', ...Array(3).fill('call: sent to sign in'), ...Array(3).fill('call: McpAuthError attempts')]);
    expect(server.state.authorizations).toBe(4);
    expect(server.state.calls).toEqual([]);
    expect(refused).toMatchObject({ failure: 'attempts', serverUrl: server.url, signIns: 3 });
    expect(refused!.scope?.split(' ')).toContain('notes:admin');
    expect(refused!.message).toContain('tool calls');
  });

  it('a callback whose state this page did not start, a refusal, or a code the server will not take is an McpAuthError', async () => {
    const { oauth, redirects } = page();
    await expect(mcpTools(server.url, { oauth })).rejects.toSatisfy(isMcpConnectionError);
    const callback = new URL(await approve(redirects[0]!));

    const forged = new URL(callback);
    forged.searchParams.set('state', 'f'.repeat(48));
    expect(await failureOf(finishMcpAuth(forged, { dbName }))).toEqual({ failure: 'state', oauthError: undefined, serverUrl: undefined });
    expect(await failureOf(finishMcpAuth(`${APP}?code=abc`, { dbName }))).toMatchObject({ failure: 'state' });

    const badCode = new URL(callback);
    badCode.searchParams.set('code', 'not-a-code');
    expect(await failureOf(finishMcpAuth(badCode, { dbName }))).toMatchObject({ failure: 'exchange', serverUrl: server.url });
    // The verifier and state are spent: the real code cannot be used with them any more.
    expect(await failureOf(finishMcpAuth(callback, { dbName }))).toMatchObject({ failure: 'state' });
    await expect(mcpTools(server.url, { oauth })).rejects.toSatisfy(isMcpConnectionError);

    const denied = new URL(APP);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', new URL(redirects[1]!).searchParams.get('state')!);
    expect(await failureOf(finishMcpAuth(denied.searchParams, { dbName }))).toEqual({ failure: 'denied', oauthError: 'access_denied', serverUrl: server.url });
  });

  it('refuses oauth with authProvider, and a redirectUrl that is not a URL', async () => {
    const { oauth } = page();
    await expect(mcpTools(server.url, { oauth, authProvider: new IndexedDbOAuthProvider(server.url, oauth) })).rejects.toThrow('oauth: cannot be given with authProvider');
    await expect(mcpTools(server.url, { oauth: { redirectUrl: 'http://[bad' } })).rejects.toThrow('oauth.redirectUrl: must be a URL');
  });
});

describe('the IndexedDB provider', () => {
  it('keeps each server’s client, tokens and verifier apart, and forgets what the server says is no longer good', async () => {
    dbName = `oauth-store-${++n}`;
    const options = { redirectUrl: APP, dbName };
    const a = new IndexedDbOAuthProvider('https://a.example/mcp', options);
    const b = new IndexedDbOAuthProvider('https://b.example/mcp', options);
    await a.saveClientInformation({ client_id: 'client-a' });
    await a.saveTokens({ access_token: 'token-a', token_type: 'Bearer' });
    const state = await a.state();
    await a.saveCodeVerifier('verifier-a');
    await a.saveDiscoveryState({ authorizationServerUrl: 'https://auth.example/' });
    expect([await b.clientInformation(), await b.tokens(), await b.discoveryState()]).toEqual([undefined, undefined, undefined]);
    await expect(b.codeVerifier()).rejects.toThrow('no PKCE code verifier');

    // Another page load reads what this one wrote.
    closeOAuthDatabase(dbName);
    const later = new IndexedDbOAuthProvider('https://a.example/mcp', options);
    expect(await later.clientInformation()).toEqual({ client_id: 'client-a' });
    expect(await later.tokens()).toEqual({ access_token: 'token-a', token_type: 'Bearer' });
    expect(await later.codeVerifier()).toBe('verifier-a');
    const raw = await openDB(dbName);
    expect((await raw.get('servers', 'https://a.example/mcp')).pending).toEqual({ state, codeVerifier: 'verifier-a', redirectUrl: APP, clientMetadata: later.clientMetadata });
    raw.close();

    await later.invalidateCredentials('tokens');
    expect(await later.tokens()).toBeUndefined();
    expect(await later.clientInformation()).toEqual({ client_id: 'client-a' });
    await later.invalidateCredentials('verifier');
    await expect(later.codeVerifier()).rejects.toThrow('no PKCE code verifier');
    await later.invalidateCredentials('all');
    expect([await later.clientInformation(), await later.discoveryState()]).toEqual([undefined, undefined]);
  });

  it('describes a public client for its redirect; a pre-registered clientId is used as given', async () => {
    dbName = `oauth-store-${++n}`;
    const provider = new IndexedDbOAuthProvider('https://a.example/mcp', { redirectUrl: APP, dbName, clientId: 'pre-registered', clientMetadata: { client_name: 'Notes app', scope: 'notes:read' } });
    expect(provider.clientMetadata).toEqual({ client_name: 'Notes app', scope: 'notes:read', redirect_uris: [APP], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' });
    expect(await provider.clientInformation()).toEqual({ client_id: 'pre-registered' });
    await provider.saveClientInformation({ client_id: 'pre-registered', issuer: 'https://auth.example/' });
    expect(await provider.clientInformation()).toEqual({ client_id: 'pre-registered', issuer: 'https://auth.example/' });
  });
});
