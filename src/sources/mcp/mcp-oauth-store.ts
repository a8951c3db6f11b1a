// Where the OAuth provider keeps what must outlive the page: for each MCP
// server (by URL), the client registration, the tokens, the authorization
// server found by discovery, and, while the page is away at the
// authorization server, the PKCE verifier and state. One small database of
// its own, apart from the chats', so neither's upgrades touch the other.
// IndexedDB as it is, not idb: this module loads on demand, and sharing idb
// with the page entry would split idb out of it (+0.5 kB gz to the entry).
import type { OAuthClientMetadata, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from './sdk.js';

export const DEFAULT_OAUTH_DB = 'tabagent-mcp-oauth';
const STORE = 'servers';

export interface OAuthRecord {
  serverUrl: string;
  clientInformation?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  discoveryState?: OAuthDiscoveryState;
  /** An authorization under way: what the redirect back needs to finish it. */
  pending?: {
    state: string;
    codeVerifier?: string;
    redirectUrl: string;
    clientMetadata: OAuthClientMetadata;
    /** A client registered beforehand (`oauth.clientId`, `oauth.clientSecret`). */
    clientId?: string;
    clientSecret?: string;
  };
  /**
   * Sign-ins that have not yet fixed what sent the page to sign in: when they
   * began, how many, the scope the last one asked for, and what needed them
   * (`'call'` once any was for a tool call: then only a call that goes
   * through clears them; a record from before `for` was kept reads as `'connect'`).
   */
  signIns?: { since: number; count: number; for?: 'connect' | 'call'; scope?: string };
}

const open = new Map<string, Promise<IDBDatabase>>();

function database(dbName: string): Promise<IDBDatabase> {
  let opening = open.get(dbName);
  if (!opening) {
    opening = new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(dbName, 1);
      request.onupgradeneeded = () => void request.result.createObjectStore(STORE, { keyPath: 'serverUrl' });
      request.onsuccess = () => {
        const db = request.result;
        // Another tab upgrades or deletes it: let go, and open again next time.
        db.onversionchange = () => forget(dbName);
        db.onclose = () => void open.delete(dbName);
        resolve(db);
      };
      request.onerror = () => reject(request.error);
    });
    open.set(dbName, opening);
    opening.catch(() => open.delete(dbName));
  }
  return opening;
}

function forget(dbName: string): void {
  const opening = open.get(dbName);
  open.delete(dbName);
  void opening?.then((db) => db.close()).catch(() => undefined);
}

function result<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function store(dbName: string, mode: IDBTransactionMode): Promise<IDBObjectStore> {
  return (await database(dbName)).transaction(STORE, mode).objectStore(STORE);
}

export async function readRecord(dbName: string, serverUrl: string): Promise<OAuthRecord | undefined> {
  return result((await store(dbName, 'readonly')).get(serverUrl) as IDBRequest<OAuthRecord | undefined>);
}

/** Change a server's record in one transaction (two tabs may write at once). */
export async function updateRecord(dbName: string, serverUrl: string, change: (record: OAuthRecord) => void): Promise<void> {
  const servers = await store(dbName, 'readwrite');
  const tx = servers.transaction;
  const record = ((await result(servers.get(serverUrl))) as OAuthRecord | undefined) ?? { serverUrl };
  change(record);
  servers.put(record);
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

/** The server whose authorization under way has this state, if any. */
export async function recordByState(dbName: string, state: string): Promise<OAuthRecord | undefined> {
  // A handful of servers at most: a scan is enough.
  const all = await result((await store(dbName, 'readonly')).getAll() as IDBRequest<OAuthRecord[]>);
  return all.find((record) => record.pending?.state === state);
}

/** Close the database (as a reload does; tests). */
export function closeOAuthDatabase(dbName: string): void {
  forget(dbName);
}
