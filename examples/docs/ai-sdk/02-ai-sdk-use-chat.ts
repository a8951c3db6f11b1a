// docs/ai-sdk.md, "`useChat` on a stored chat".
import type { UIMessage } from 'ai';
import { toolCallText } from 'tabagent/testing';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript([toolCallText('delete_file', { path: 'old.log' }), 'Deleted old.log.']);
const deleted: string[] = [];
const saved = new Map<string, string>(); // stands in for the URL or localStorage
const approveAll = async (chat: Chat<UIMessage>) => {
  for (const part of chat.lastMessage?.parts ?? []) if ('approval' in part && part.state === 'approval-requested') await chat.addToolApprovalResponse({ id: part.approval.id, approved: true });
};

// #region readme
// Part of examples/docs/ai-sdk/02-ai-sdk-use-chat.ts, which defines `deleted` and `saved` (where your app keeps the chat's id).
import { Chat } from '@ai-sdk/react';
import { lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { createAgent, tool } from 'tabagent';
import { TabAgentChatTransport } from 'tabagent/ai-sdk';
import { z } from 'zod';

const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const deleteFile = tool({
  name: 'delete_file',
  description: 'Delete a file',
  input: z.object({ path: z.string() }),
  needsApproval: true, // the person answers in the UI: addToolApprovalResponse
  run: ({ path }) => (deleted.push(path), { deleted: path }),
});
const transport = new TabAgentChatTransport({ agent, tools: [deleteFile], system: 'You tidy files.' });

// After a reload the same stored chat: its id from wherever the app keeps it.
const id = saved.get('chat') ?? (await transport.newChat());
saved.set('chat', id);
const messages = await transport.messages(id); // the stored chat as useChat shows it, a pending approval included

// The object useChat runs on; in a component: const { messages, sendMessage, addToolApprovalResponse } = useChat({ chat })
const chat = new Chat({ id, transport, messages, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
await chat.sendMessage({ text: 'Clean up my files' }); // the call waits: a tool part in state 'approval-requested'
// #endregion readme

check(chat.lastMessage?.parts.some((p) => 'approval' in p && p.state === 'approval-requested'), JSON.stringify(chat.lastMessage?.parts));
// A reload: a new transport and Chat, from the store.
const reopened = new TabAgentChatTransport({ agent, tools: [deleteFile], system: 'You tidy files.' });
const again = new Chat({ id: saved.get('chat')!, transport: reopened, messages: await reopened.messages(saved.get('chat')!), sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
await approveAll(again);
for (let i = 0; again.status !== 'ready' && i < 200; i++) await new Promise((r) => setTimeout(r, 10));
check(deleted.join() === 'old.log', deleted.join());
check(again.lastMessage?.parts.some((p) => p.type === 'text' && p.text === 'Deleted old.log.'), JSON.stringify(again.lastMessage?.parts));
