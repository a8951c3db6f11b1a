// e2e/support/chat-server.mjs in the README app: the real one, which the spec started (./test-server.ts).
import type * as InNode from '../../../support/chat-server.mjs';
import { startedServer } from './test-server.js';

export const startChatServer: typeof InNode.startChatServer = async () => startedServer('chat-server') as InNode.ChatServer;
