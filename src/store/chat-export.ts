// The chat export format: one JSON document per chat, versioned so later
// versions of tabagent can still read today's files.
//
//   {
//     "format": "tabagent.chat",
//     "version": 1,
//     "exportedAt": "2026-11-21T12:00:00.000Z",
//     "chat": { "id", "title", "createdAt", "updatedAt", "settings", "tools", "answers" },
//     "messages": [ { "role": "user", "content", "createdAt" },
//                   { "role": "assistant", "raw", "text", "reasoning", "toolCalls", "finishReason", "createdAt" },
//                   { "role": "tool", "results": [{ "callId", "name", "content", "isError" }], "createdAt" } ]
//   }
import type { ChatMessage } from '../shared/chat.js';
import type { ChatRecord, StoredChat } from './records.js';

export const EXPORT_FORMAT = 'tabagent.chat';
export const EXPORT_VERSION = 1;

export interface ChatExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  chat: Omit<ChatRecord, 'messageCount' | 'version' | 'kept' | 'rewound'>;
  messages: ChatMessage[];
}

export function toChatExport({ record, messages }: StoredChat): ChatExport {
  // What calls kept to be resumed names work on this page's servers' sessions: not for elsewhere.
  // How often it was rewound is this database's count, as its version is.
  const { messageCount: _, version: __, kept: ___, rewound: ____, ...chat } = record;
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: new Date().toISOString(), chat, messages };
}
