// A stored tabagent chat as the AI SDK UI's messages: each user message, and
// each run (every model turn and tool result until the next user message) as
// one assistant message, built by the AI SDK's own reader from the chunks a
// live run streams (ui-chunks.ts), so a chat reopened after a reload shows
// as it did while it ran.
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import type { Chat } from '../chat/chat.js';
import type { StreamPart } from '../run/chat-stream.js';
import type { ChatMessage, ToolCall } from '../shared/chat.js';
import { UiChunks } from './ui-chunks.js';

/** A stored message's id in the UI: the chat's id and the message's place in it (a run goes by its first message's). */
export function messageId(chatId: string, index: number): string {
  return `${chatId}:${index}`;
}

export async function uiMessagesOf(chat: Chat, runsTool: (name: string) => boolean): Promise<UIMessage[]> {
  const messages = chat.messages;
  const out: UIMessage[] = [];
  for (let i = 0; i < messages.length; ) {
    const message = messages[i]!;
    if (message.role === 'user') {
      out.push({ id: messageId(chat.id, i), role: 'user', parts: [{ type: 'text', text: message.content }] });
      i++;
      continue;
    }
    let end = i;
    while (end < messages.length && messages[end]!.role !== 'user') end++;
    const parts = storedParts(messages.slice(i, end), end === messages.length ? chat.pendingToolCalls : []);
    out.push(await replayed(messageId(chat.id, i), parts, runsTool));
    i = end;
  }
  return out;
}

/** The stream parts a stored run would have streamed: its turns, their calls and results, calls still waiting for approval. */
export function storedParts(run: readonly ChatMessage[], pending: readonly ToolCall[]): StreamPart[] {
  const parts: StreamPart[] = [];
  let step = -1;
  let open: Extract<ChatMessage, { role: 'assistant' }> | undefined;
  const endStep = () => {
    if (open) parts.push({ type: 'step-end', step, finishReason: open.finishReason, usage: { promptTokens: open.promptTokens ?? 0, completionTokens: open.tokens ?? 0 }, modelMs: open.modelMs ?? 0, toolMs: 0 });
    open = undefined;
  };
  for (const message of run) {
    if (message.role === 'assistant') {
      endStep();
      open = message;
      step++;
      if (message.reasoning) parts.push({ type: 'reasoning', step, text: message.reasoning });
      if (message.text) parts.push({ type: 'text', step, text: message.text });
      for (const call of message.toolCalls) parts.push({ type: 'tool-call', step, call });
    } else if (message.role === 'tool') {
      const calls = new Map(open?.toolCalls.map((c) => [c.id, c]));
      for (const result of message.results) {
        // A denied call was asked about first.
        if (result.status === 'denied') parts.push({ type: 'approval-request', step, callId: result.callId, toolName: result.name, input: calls.get(result.callId)?.arguments ?? {} });
        parts.push({ type: 'tool-result', step, result });
      }
      endStep();
    }
  }
  for (const call of pending) if (call.awaitingApproval) parts.push({ type: 'approval-request', step, callId: call.id, toolName: call.name, input: call.arguments });
  endStep();
  return parts;
}

/** Stream parts through the chunk mapping and the AI SDK's reader: the message `useChat` would hold. */
export async function replayed(id: string, parts: readonly StreamPart[], runsTool: (name: string) => boolean): Promise<UIMessage> {
  const chunks: UIMessageChunk[] = [{ type: 'start', messageId: id }];
  const mapping = new UiChunks((chunk) => chunks.push(chunk), runsTool);
  for (const part of parts) mapping.part(part);
  mapping.finish(undefined);
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage = { id, role: 'assistant', parts: [] };
  for await (const snapshot of readUIMessageStream({ stream, terminateOnError: true })) message = snapshot;
  return message;
}
