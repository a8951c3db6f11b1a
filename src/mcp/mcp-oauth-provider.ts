// The SDK's OAuthClientProvider for a page: what the SDK's auth() reads and
// writes (client registration, tokens, discovery, PKCE verifier, state) is
// kept in IndexedDB per MCP server, so it outlives the redirect to the
// authorization server and back, and reloads. Loaded on demand with the
// MCP client (mcp-server.ts) and by finishMcpAuth.
import type { OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { DEFAULT_OAUTH_DB, readRecord, updateRecord, type OAuthRecord } from './mcp-oauth-store.js';
import type { McpOAuthOptions } from './mcp-tools.js';

export class IndexedDbOAuthProvider implements OAuthClientProvider {
  readonly #serverUrl: string;
  readonly #redirectUrl: string;
  readonly #options: McpOAuthOptions;
  readonly #dbName: string;

  constructor(serverUrl: string, options: McpOAuthOptions) {
    this.#serverUrl = serverUrl;
    this.#redirectUrl = new URL(options.redirectUrl, globalThis.location?.href).href;
    this.#options = options;
    this.#dbName = options.dbName ?? DEFAULT_OAUTH_DB;
  }

  get redirectUrl(): string {
    return this.#redirectUrl;
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
    await this.#update((record) => {
      record.pending = { state, redirectUrl: this.#redirectUrl, clientMetadata: this.clientMetadata };
    });
    return state;
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const stored = (await this.#read())?.clientInformation;
    const { clientId } = this.#options;
    // A pre-registered id wins over a registration made before it was given.
    if (clientId !== undefined) return stored?.client_id === clientId ? stored : { client_id: clientId };
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

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
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

  #read(): Promise<OAuthRecord | undefined> {
    return readRecord(this.#dbName, this.#serverUrl);
  }

  #update(change: (record: OAuthRecord) => void): Promise<void> {
    return updateRecord(this.#dbName, this.#serverUrl, change);
  }
}
