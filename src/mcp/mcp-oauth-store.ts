// Where the OAuth provider keeps what must outlive the page: for each MCP
// server (by URL), the client registration, the tokens, the authorization
// server found by discovery, and, while the page is away at the
// authorization server, the PKCE verifier and state. One small database of
// its own, apart from the chats', so neither's upgrades touch the other.
import { openDB, type IDBPDatabase } from 'idb';
import type { OAuthClientMetadata, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

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
  };
}

const open = new Map<string, Promise<IDBPDatabase>>();

function database(dbName: string): Promise<IDBPDatabase> {
  let opening = open.get(dbName);
  if (!opening) {
    opening = openDB(dbName, 1, {
      upgrade: (db) => void db.createObjectStore(STORE, { keyPath: 'serverUrl' }),
      // Another tab upgrades or deletes it: let go, and open again next time.
      blocking: () => void forget(dbName),
      terminated: () => void open.delete(dbName),
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

export async function readRecord(dbName: string, serverUrl: string): Promise<OAuthRecord | undefined> {
  return (await database(dbName)).get(STORE, serverUrl) as Promise<OAuthRecord | undefined>;
}

/** Change a server's record in one transaction (two tabs may write at once). */
export async function updateRecord(dbName: string, serverUrl: string, change: (record: OAuthRecord) => void): Promise<void> {
  const tx = (await database(dbName)).transaction(STORE, 'readwrite');
  const record: OAuthRecord = ((await tx.store.get(serverUrl)) as OAuthRecord | undefined) ?? { serverUrl };
  change(record);
  await Promise.all([tx.store.put(record), tx.done]);
}

/** The server whose authorization under way has this state, if any. */
export async function recordByState(dbName: string, state: string): Promise<OAuthRecord | undefined> {
  // A handful of servers at most: a scan is enough.
  const all = (await (await database(dbName)).getAll(STORE)) as OAuthRecord[];
  return all.find((record) => record.pending?.state === state);
}

export async function deleteRecord(dbName: string, serverUrl: string): Promise<void> {
  await (await database(dbName)).delete(STORE, serverUrl);
}

/** Close the database (tests that delete it). */
export function closeOAuthDatabase(dbName: string): void {
  forget(dbName);
}
