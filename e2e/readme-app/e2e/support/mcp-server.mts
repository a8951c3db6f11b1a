// e2e/support/mcp-server.mjs in the README app: the real one, which the spec started (./test-server.ts).
import type * as InNode from '../../../support/mcp-server.mjs';
import { startedServer } from './test-server.js';

export const startMcpTestServer: typeof InNode.startMcpTestServer = async () => startedServer('mcp-server') as InNode.McpTestServer;
