// e2e/support/mcp-oauth-server.mjs in the README app: the real one, which the spec started (./test-server.ts).
import type * as InNode from '../../../support/mcp-oauth-server.mjs';
import { startedServer } from './test-server.js';

export const startMcpOAuthTestServer: typeof InNode.startMcpOAuthTestServer = async () => startedServer('mcp-oauth-server') as InNode.McpOAuthTestServer;
