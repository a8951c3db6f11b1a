// The redirect back from the authorization server: find the authorization
// this page started by its state (the SDK leaves state to the app), and let
// the SDK's auth() exchange the code (PKCE verifier, issuer checks) and save
// the tokens. The verifier and state are spent either way: a code is good once.
import { auth, OAuthError } from './sdk.js';
import { McpAuthError, isMcpAuthError } from '../../errors/index.js';
import { IndexedDbOAuthProvider } from './mcp-oauth-provider.js';
import { DEFAULT_OAUTH_DB, recordByState, updateRecord } from './mcp-oauth-store.js';
import type { FinishMcpAuthOptions } from './mcp-types.js';

/** `finishMcpAuth`: resolves with the server's URL, or rejects with McpAuthError. */
export async function finishAuth(callback: string | URL | URLSearchParams, options: FinishMcpAuthOptions): Promise<{ serverUrl: string }> {
  const params = callback instanceof URLSearchParams ? callback : new URL(callback, globalThis.location?.href).searchParams;
  const dbName = options.dbName ?? DEFAULT_OAUTH_DB;
  const state = params.get('state');
  const record = state ? await recordByState(dbName, state) : undefined;
  if (!record?.pending) {
    throw new McpAuthError({ failure: 'state', detail: state ? 'its state matches no authorization this page started' : 'the redirect carries no state' });
  }
  const { serverUrl, pending } = record;
  try {
    // The authorization server's own words (error_description) are not shown: in a mix-up attack they are the attacker's.
    const error = params.get('error');
    if (error !== null) throw new McpAuthError({ failure: 'denied', serverUrl, oauthError: error, detail: `the authorization server answered "${error}"` });
    const code = params.get('code');
    if (!code) throw new McpAuthError({ failure: 'exchange', serverUrl, detail: 'the redirect carries no code' });
    const { clientId, clientSecret } = pending;
    const provider = new IndexedDbOAuthProvider(serverUrl, { redirectUrl: pending.redirectUrl, clientMetadata: pending.clientMetadata, dbName, ...(clientId !== undefined ? { clientId } : {}), ...(clientSecret !== undefined ? { clientSecret } : {}) });
    await auth(provider, { serverUrl, authorizationCode: code, iss: params.get('iss') ?? undefined, ...(options.fetch ? { fetchFn: options.fetch } : {}) });
  } catch (error) {
    if (isMcpAuthError(error)) throw error;
    const oauthError = error instanceof OAuthError ? error.code : undefined;
    throw new McpAuthError({ failure: 'exchange', serverUrl, ...(oauthError ? { oauthError } : {}), detail: error instanceof Error ? error.message : String(error), cause: error });
  } finally {
    await updateRecord(dbName, serverUrl, (r) => {
      if (r.pending?.state === state) delete r.pending;
    });
  }
  return { serverUrl };
}
