// e2e/support/mcp-task-server.mjs in the README app: the real one, which the spec started (./test-server.ts).
import type * as InNode from '../../../support/mcp-task-server.mjs';
import { startedServer } from './test-server.js';

export const startMcpTaskServer: typeof InNode.startMcpTaskServer = async () => startedServer('mcp-task-server') as InNode.McpTaskServer;
