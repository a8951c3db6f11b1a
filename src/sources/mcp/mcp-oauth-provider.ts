// The SDK's OAuthClientProvider for a page: what the SDK's auth() reads and
// writes (client registration, tokens, discovery, PKCE verifier, state) is
// kept in IndexedDB per MCP server, so it outlives the redirect to the
// authorization server and back, and reloads. Loaded on demand with the
// MCP client (mcp-server.ts) and by finishMcpAuth.
import type { OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from './sdk.js';
import { McpAuthError } from '../../errors/index.js';
import { DEFAULT_OAUTH_DB, readRecord, updateRecord, type OAuthRecord } from './mcp-oauth-store.js';
import type { McpOAuthOptions } from './mcp-types.js';

/** Sign-ins the server may refuse in a row (MCP's SHOULD against authorization loops), within this long. */
export const MAX_SIGN_INS = 3;
const SIGN_IN_WINDOW_MS = 10 * 60_000;

export class IndexedDbOAuthProvider implements OAuthClientProvider {
  readonly #serverUrl: string;
  readonly #redirectUrl: string;
  readonly #options: McpOAuthOptions;
  readonly #dbName: string;
  /** The server took the token to connect and list: sign-ins from now on are for calls. */
  #connected = false;

  constructor(serverUrl: string, options: McpOAuthOptions) {
    this.#serverUrl = serverUrl;
    this.#redirectUrl = new URL(options.redirectUrl, globalThis.location?.href).href;
    this.#options = options;
    this.#dbName = options.dbName ?? DEFAULT_OAUTH_DB;
  }

  get redirectUrl(): string {
    return this.#redirectUrl;
  }

  /** The app's Client ID Metadata Document, if it has one: the SDK uses it as the client id where the server supports it. */
  get clientMetadataUrl(): string | undefined {
    return this.#options.clientMetadataUrl;
  }

  /** A public client (a page keeps no secret): PKCE instead, refresh tokens when the server gives them. */
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: globalThis.document?.title || globalThis.location?.host || 'tabagent',
      redirect_uris: [this.#redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...this.#options.clientMetadata,
    };
  }

  /** A new authorization starts here (the SDK asks for state first): what finishMcpAuth needs is kept with it. */
  async state(): Promise<string> {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    const state = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const { clientId, clientSecret } = this.#options;
    await this.#update((record) => {
      record.pending = { state, redirectUrl: this.#redirectUrl, clientMetadata: this.clientMetadata, ...(clientId !== undefined ? { clientId } : {}), ...(clientSecret !== undefined ? { clientSecret } : {}) };
    });
    return state;
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const stored = (await this.#read())?.clientInformation;
    const { clientId, clientSecret } = this.#options;
    // A pre-registered id wins over a registration made before it was given.
    if (clientId !== undefined) return stored?.client_id === clientId ? { ...stored, ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}) } : { client_id: clientId, ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}) };
    return stored;
  }

  async saveClientInformation(clientInformation: StoredOAuthClientInformation): Promise<void> {
    await this.#update((record) => void (record.clientInformation = clientInformation));
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.#read())?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.#update((record) => void (record.tokens = tokens));
  }

  /**
   * Counted: a server that refuses every token (a scope it never grants)
   * would send the page to sign in forever. Past MAX_SIGN_INS that did not fix
   * what they were for, it is not sent (MCP's authorization spec: retry
   * limits, tracked per operation).
   */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const scope = authorizationUrl.searchParams.get('scope') ?? undefined;
    let refused: { count: number; for: 'connect' | 'call' } | undefined;
    await this.#update((record) => {
      const now = Date.now();
      const signIns = record.signIns && now - record.signIns.since < SIGN_IN_WINDOW_MS ? record.signIns : { since: now, count: 0 };
      // Once a call needed a sign-in, only a call that goes through shows the sign-ins worked.
      const needed = signIns.for === 'call' || this.#connected ? 'call' : 'connect';
      if (signIns.count >= MAX_SIGN_INS) refused = { count: signIns.count, for: needed };
      else record.signIns = { since: signIns.since, count: signIns.count + 1, for: needed, ...(scope !== undefined ? { scope } : {}) };
    });
    if (refused) {
      const what = refused.for === 'call' ? 'its tool calls' : 'connecting';
      throw new McpAuthError({
        failure: 'attempts',
        serverUrl: this.#serverUrl,
        signIns: refused.count,
        ...(scope !== undefined ? { scope } : {}),
        detail: `the server refused the tokens of the last ${refused.count} sign-ins for ${what}${scope ? ` (asking for scope "${scope}")` : ''}; not sending the page to sign in again`,
      });
    }
    const { onRedirect } = this.#options;
    if (onRedirect) await onRedirect(authorizationUrl);
    else globalThis.location.assign(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.#update((record) => {
      record.pending = { state: '', redirectUrl: this.#redirectUrl, clientMetadata: this.clientMetadata, ...record.pending, codeVerifier };
    });
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.#read())?.pending?.codeVerifier;
    if (!verifier) throw new Error('no PKCE code verifier: no authorization is under way for this server');
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.#update((record) => void (record.discoveryState = state));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.#read())?.discoveryState;
  }

  /** The server said these no longer work (the SDK asks after `invalid_client` or `invalid_grant`). */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.#update((record) => {
      if (scope === 'all' || scope === 'client') delete record.clientInformation;
      if (scope === 'all' || scope === 'tokens') delete record.tokens;
      if (scope === 'all' || scope === 'verifier') delete record.pending;
      if (scope === 'all' || scope === 'discovery') delete record.discoveryState;
    });
  }

  /**
   * Connected and listed with the token: sign-ins that connecting needed are
   * done with. Sign-ins a tool call needed are not (a server may list tools
   * for a token it refuses every call), and any sign-in from now on is for
   * what the page does with the tools.
   */
  async connected(): Promise<void> {
    this.#connected = true;
    const signIns = (await this.#read())?.signIns;
    if (signIns && signIns.for !== 'call') await this.#update((record) => void delete record.signIns);
  }

  /** A tool call went through with the token: every sign-in so far did its job. */
  async called(): Promise<void> {
    if ((await this.#read())?.signIns) await this.#update((record) => void delete record.signIns);
  }

  #read(): Promise<OAuthRecord | undefined> {
    return readRecord(this.#dbName, this.#serverUrl);
  }

  #update(change: (record: OAuthRecord) => void): Promise<void> {
    return updateRecord(this.#dbName, this.#serverUrl, change);
  }
}
