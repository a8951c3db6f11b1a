// The chat transport driven by the AI SDK's own Chat (the object useChat
// wraps, from @ai-sdk/react), on stored tabagent chats with the strict fake
// model in this thread. The same with React, a real worker, IndexedDB and a
// reload of the page is in e2e/ai-sdk.spec.ts.
import 'fake-indexeddb/auto';
import { Chat as UiChat } from '@ai-sdk/react';
import { lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls, readUIMessageStream, type UIMessage } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { isMessageNotFoundError, isPendingToolCallsError } from '../errors/index.js';
import { IdbChatStore } from '../store/idb-chat-store.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import { localAgent } from '../test-support/local-chat.js';
import { toolCallText } from '../testing/calls.js';
import { rawTool, tool } from '../tools/define-tool.js';
import type { Agent } from '../agent/agent.js';
import { TabAgentChatTransport } from './chat-transport.js';

const tools = () => {
  const ran: string[] = [];
  const weather = tool({ name: 'get_weather', description: 'Weather', input: z.object({ city: z.string() }), run: ({ city }) => (ran.push(`weather ${city}`), { city, forecast: 'sunny' }) });
  const remove = tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => (ran.push(`delete ${path}`), { deleted: path }) });
  const search = rawTool({ name: 'search_web', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
  return { ran, weather, remove, search };
};

/** What a message shows, without the fields that say how it streamed. */
const shown = (message: UIMessage | undefined) =>
  message?.parts.map((p) => {
    if (p.type === 'text' || p.type === 'reasoning') return `${p.type}:${p.text}`;
    if (p.type === 'step-start') return 'step';
    if ('toolCallId' in p) return `${p.type}:${p.state}${'output' in p && p.output !== undefined ? `:${JSON.stringify(p.output)}` : ''}${p.providerExecuted ? ':tabagent' : ''}`;
    return p.type;
  });

const settled = (chat: UiChat<UIMessage>) => vi.waitFor(() => expect(chat.status).toBe('ready'));

describe('TabAgentChatTransport with the AI SDK\'s Chat', () => {
  it('streams a run with a managed tool into one assistant message, stored: the messages read back are the ones shown', async () => {
    const { ran, weather } = tools();
    const { agent } = await localAgent([toolCallText('get_weather', { city: 'Oslo' }), 'Sunny in Oslo.']);
    const transport = new TabAgentChatTransport({ agent, tools: [weather] });
    const id = await transport.newChat();
    const chat = new UiChat({ id, transport });
    await chat.sendMessage({ text: 'Weather in Oslo?' });
    expect(chat.error).toBeUndefined();
    expect(ran).toEqual(['weather Oslo']);
    expect(shown(chat.messages[1])).toEqual(['step', 'tool-get_weather:output-available:{"city":"Oslo","forecast":"sunny"}:tabagent', 'step', 'text:Sunny in Oslo.']);
    // Another tab, or after a reload: the stored chat as useChat would show it.
    const again = await new TabAgentChatTransport({ agent, tools: [weather] }).messages(id);
    expect(again.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(again[1]!.id).toBe(chat.messages[1]!.id);
    expect(again[1]!.parts).toEqual(chat.messages[1]!.parts);
    agent.close();
  });

  it('shows a call as it is written (input-streaming, its input growing), then run; the stored chat reads back as shown', async () => {
    const { ran, weather } = tools();
    const { agent } = await localAgent([{ text: toolCallText('get_weather', { city: 'Rio de Janeiro' }), tokenDelayMs: 1 }, 'Sunny in Rio.']);
    const transport = new TabAgentChatTransport({ agent, tools: [weather] });
    const id = await transport.newChat();
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Rio?' }] };
    const stream = await transport.sendMessages({ trigger: 'submit-message', chatId: id, messageId: undefined, messages: [user], abortSignal: undefined });
    // What useChat makes of the stream, message by message as it grows.
    const states: Array<{ state: string; input: unknown }> = [];
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream })) {
      last = message;
      const part = message.parts.find((p) => p.type === 'tool-get_weather') as { state: string; input: unknown } | undefined;
      if (part) states.push({ state: part.state, input: structuredClone(part.input) });
    }
    const city = (s: { input: unknown }) => (s.input as { city?: unknown } | undefined)?.city;
    expect(states.some((s) => s.state === 'input-streaming' && typeof city(s) === 'string' && (city(s) as string).length < 'Rio de Janeiro'.length)).toBe(true);
    expect(states.at(-1)).toEqual({ state: 'output-available', input: { city: 'Rio de Janeiro' } });
    expect(ran).toEqual(['weather Rio de Janeiro']);
    const again = await transport.messages(id);
    expect(again[1]!.parts).toEqual(last!.parts);
    agent.close();
  });

  it('an opener in prose that never became a call ends the part shown as it was written, as an input error', async () => {
    const { weather } = tools();
    const prose = 'Write <tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"} like that.';
    const { agent } = await localAgent([{ text: prose, tokenDelayMs: 1 }], new MemoryChatStore(), { grammar: false });
    const transport = new TabAgentChatTransport({ agent, tools: [weather] });
    const id = await transport.newChat();
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'How?' }] };
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream: await transport.sendMessages({ trigger: 'submit-message', chatId: id, messageId: undefined, messages: [user], abortSignal: undefined }) })) last = message;
    expect(shown(last)).toEqual(['step', 'text:Write', 'tool-get_weather:output-error:tabagent', 'text: <tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"} like that.']);
    agent.close();
  });

  it('an approval: the run waits (stored); reopened, the person approves, the tool runs once and the run goes on', async () => {
    const { ran, remove } = tools();
    const store = new MemoryChatStore();
    const { agent } = await localAgent([toolCallText('delete_file', { path: 'old.log' }), 'Deleted old.log.'], store);
    const transport = new TabAgentChatTransport({ agent, tools: [remove] });
    const id = await transport.newChat();
    const first = new UiChat({ id, transport });
    await first.sendMessage({ text: 'Clean up' });
    expect(shown(first.messages[1])).toEqual(['step', 'tool-delete_file:approval-requested:tabagent']);
    expect(ran).toEqual([]);

    // A new page: the chat from the store, the question still open.
    const transport2 = new TabAgentChatTransport({ agent, tools: [remove] });
    const messages = await transport2.messages(id);
    const second = new UiChat({ id, transport: transport2, messages, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    expect(shown(second.messages[1])).toEqual(['step', 'tool-delete_file:approval-requested:tabagent']);
    const part = second.messages[1]!.parts.find((p) => 'approval' in p && p.approval) as { approval: { id: string } };
    await second.addToolApprovalResponse({ id: part.approval.id, approved: true });
    await settled(second);
    expect(second.error).toBeUndefined();
    expect(ran).toEqual(['delete old.log']);
    expect(shown(second.messages[1])).toEqual(['step', 'tool-delete_file:output-available:{"deleted":"old.log"}:tabagent', 'step', 'text:Deleted old.log.']);
    expect((await transport2.messages(id))[1]!.parts).toEqual(second.messages[1]!.parts.map((p) => ('approval' in p ? { ...p, approval: undefined } : p)).map(stripUndefined));
    agent.close();
  });

  it('a denial: the tool never runs, the model reads why, and the part says denied', async () => {
    const { ran, remove } = tools();
    const { agent, fake } = await localAgent([toolCallText('delete_file', { path: 'notes.txt' }), 'I kept notes.txt.']);
    const transport = new TabAgentChatTransport({ agent, tools: [remove] });
    const chat = new UiChat({ id: await transport.newChat(), transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await chat.sendMessage({ text: 'Clean up' });
    const part = chat.messages[1]!.parts.find((p) => 'approval' in p && p.approval) as { approval: { id: string } };
    await chat.addToolApprovalResponse({ id: part.approval.id, approved: false, reason: 'keep my notes' });
    await settled(chat);
    expect(ran).toEqual([]);
    expect(fake.requests[1]!.last).toContain('keep my notes');
    expect(shown(chat.messages[1])).toEqual(['step', 'tool-delete_file:output-denied:tabagent', 'step', 'text:I kept notes.txt.']);
    agent.close();
  });

  it('a raw tool is the app\'s: onToolCall gets it, addToolOutput answers it, and the run goes on', async () => {
    const { search } = tools();
    const { agent, fake } = await localAgent([toolCallText('search_web', { q: 'tabagent' }), 'Found it.']);
    const transport = new TabAgentChatTransport({ agent, tools: [search] });
    const chat: UiChat<UIMessage> = new UiChat({
      id: await transport.newChat(),
      transport,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
      onToolCall: ({ toolCall }) => void chat.addToolOutput({ tool: toolCall.toolName, toolCallId: toolCall.toolCallId, output: { hits: ['tabagent.dev'] } } as never),
    });
    await chat.sendMessage({ text: 'Search tabagent' });
    await settled(chat);
    expect(chat.error).toBeUndefined();
    expect(fake.requests[1]!.last).toContain('{"hits":["tabagent.dev"]}');
    expect(shown(chat.messages[1])).toEqual(['step', 'tool-search_web:output-available:{"hits":["tabagent.dev"]}', 'step', 'text:Found it.']);
    agent.close();
  });

  it('regenerate: the run\'s earlier steps stay, the last answer is written again', async () => {
    const { weather } = tools();
    const { agent } = await localAgent([toolCallText('get_weather', { city: 'Rome' }), 'Warm.', 'Warm and sunny.']);
    const transport = new TabAgentChatTransport({ agent, tools: [weather] });
    const chat = new UiChat({ id: await transport.newChat(), transport });
    await chat.sendMessage({ text: 'Weather in Rome?' });
    await chat.regenerate();
    expect(chat.error).toBeUndefined();
    expect(shown(chat.messages[1])).toEqual(['step', 'tool-get_weather:output-available:{"city":"Rome","forecast":"sunny"}:tabagent', 'step', 'text:Warm and sunny.']);
    expect((await new TabAgentChatTransport({ agent, tools: [weather] }).messages(chat.id))[1]!.parts).toEqual(chat.messages[1]!.parts);
    agent.close();
  });

  it('a message while an approval waits: useChat gets the typed error, nothing is stored', async () => {
    const { remove } = tools();
    const { agent } = await localAgent([toolCallText('delete_file', { path: 'a' })]);
    const transport = new TabAgentChatTransport({ agent, tools: [remove] });
    const chat = new UiChat({ id: await transport.newChat(), transport });
    await chat.sendMessage({ text: 'Clean up' });
    await chat.sendMessage({ text: 'Hello?' });
    expect(isPendingToolCallsError(chat.error)).toBe(true);
    expect((await transport.messages(chat.id)).map((m) => m.role)).toEqual(['user', 'assistant']);
    agent.close();
  });
});

describe('going back to an earlier message (useChat regenerate({ messageId }) and sendMessage({ messageId }))', () => {
  /** Each answer names the request it answers, so a new answer never looks like the old one. */
  const answers = (r: { turn: number; last: string }) => `${r.turn}: re ${r.last}`;

  /** On IndexedDB (fake-indexeddb): a reload reads what the rewind wrote there. */
  async function twoExchanges() {
    const { agent } = await localAgent(answers, await IdbChatStore.open(`transport-${Math.random()}`));
    const transport = new TabAgentChatTransport({ agent });
    const chat = new UiChat({ id: await transport.newChat(), transport });
    await chat.sendMessage({ text: 'Hi' });
    await chat.sendMessage({ text: 'Weather?' });
    expect(chat.messages.map(shown)).toEqual([['text:Hi'], ['step', 'text:0: re Hi'], ['text:Weather?'], ['step', 'text:1: re Weather?']]);
    return { agent, chat, transport };
  }

  /** The page, and the stored chat as a reload shows it, agree (the assistant messages' ids too: they are the stored runs'). */
  async function reloadShowsThePage(agent: Agent, chat: UiChat<UIMessage>) {
    const again = await new TabAgentChatTransport({ agent }).messages(chat.id);
    expect(again.map(shown)).toEqual(chat.messages.map(shown));
    expect(again.filter((m) => m.role === 'assistant').map((m) => m.id)).toEqual(chat.messages.filter((m) => m.role === 'assistant').map((m) => m.id));
  }

  it('regenerate({ messageId }) of the first of two answers: the chat goes back to before it, and the model answers again', async () => {
    const { agent, chat } = await twoExchanges();
    await chat.regenerate({ messageId: chat.messages[1]!.id });
    expect(chat.error).toBeUndefined();
    expect(chat.messages.map(shown)).toEqual([['text:Hi'], ['step', 'text:2: re Hi']]);
    await reloadShowsThePage(agent, chat);
    agent.close();
  });

  it('regenerate({ messageId }) of a user message: everything after it goes, and the model answers it again', async () => {
    const { agent, chat } = await twoExchanges();
    await chat.regenerate({ messageId: chat.messages[0]!.id });
    expect(chat.error).toBeUndefined();
    expect(chat.messages.map(shown)).toEqual([['text:Hi'], ['step', 'text:2: re Hi']]);
    await reloadShowsThePage(agent, chat);
    agent.close();
  });

  it('sendMessage({ text, messageId }) edits the first user message: what came after it goes, the model answers the new text', async () => {
    const { agent, chat } = await twoExchanges();
    await chat.sendMessage({ text: 'Hello?', messageId: chat.messages[0]!.id });
    expect(chat.error).toBeUndefined();
    expect(chat.messages.map(shown)).toEqual([['text:Hello?'], ['step', 'text:2: re Hello?']]);
    await reloadShowsThePage(agent, chat);
    agent.close();
  });

  it('after a reload too: the ids useChat is given name the stored messages', async () => {
    const { agent, chat } = await twoExchanges();
    const transport = new TabAgentChatTransport({ agent });
    const reloaded = new UiChat({ id: chat.id, transport, messages: await transport.messages(chat.id) });
    await reloaded.sendMessage({ text: 'Time?', messageId: reloaded.messages[2]!.id });
    expect(reloaded.error).toBeUndefined();
    expect(reloaded.messages.map(shown)).toEqual([['text:Hi'], ['step', 'text:0: re Hi'], ['text:Time?'], ['step', 'text:2: re Time?']]);
    await reloadShowsThePage(agent, reloaded);
    agent.close();
  });

  it('a message the stored chat does not hold (the page shows more than is stored) is a MessageNotFoundError, and nothing changes', async () => {
    const { agent } = await localAgent(answers);
    const transport = new TabAgentChatTransport({ agent });
    const id = await transport.newChat();
    const chat = new UiChat({ id, transport });
    await chat.sendMessage({ text: 'Hi' });
    const page: UIMessage[] = [...chat.messages, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Never sent' }] }];
    const error = await transport.sendMessages({ trigger: 'regenerate-message', chatId: id, messageId: 'u2', messages: page, abortSignal: undefined }).catch((e) => e);
    expect(isMessageNotFoundError(error)).toBe(true);
    expect(error).toMatchObject({ chatId: id, messageId: 'u2' });
    expect((await transport.messages(id)).map(shown)).toEqual(chat.messages.map(shown));
    agent.close();
  });

  it('a page that shows what another tab changed since (an edit): its regenerate is a MessageNotFoundError, and the stored chat stays', async () => {
    const { agent, chat, transport } = await twoExchanges();
    const elsewhere = await agent.openChat(chat.id);
    await elsewhere.edit(2, 'Time?');
    const stored = async () => (await new TabAgentChatTransport({ agent }).messages(chat.id)).map(shown);
    expect(await stored()).toEqual([['text:Hi'], ['step', 'text:0: re Hi'], ['text:Time?'], ['step', 'text:2: re Time?']]);
    // The page's transport has caught up; the page still shows "Weather?", which the chat no longer holds.
    await vi.waitFor(async () => expect((await transport.messages(chat.id)).map(shown)).toEqual(await stored()));
    await chat.regenerate({ messageId: chat.messages[3]!.id });
    expect(isMessageNotFoundError(chat.error)).toBe(true);
    expect(await stored()).toEqual([['text:Hi'], ['step', 'text:0: re Hi'], ['text:Time?'], ['step', 'text:2: re Time?']]);
    agent.close();
  });

  it('a regenerated earlier run keeps its tool steps, as the last run does: only its last answer is written again', async () => {
    const { ran, weather } = tools();
    const { agent } = await localAgent([toolCallText('get_weather', { city: 'Rome' }), 'Warm.', 'Thanks!', 'Warm and sunny.']);
    const transport = new TabAgentChatTransport({ agent, tools: [weather] });
    const chat = new UiChat({ id: await transport.newChat(), transport });
    await chat.sendMessage({ text: 'Weather in Rome?' });
    await chat.sendMessage({ text: 'Thank you' });
    await chat.regenerate({ messageId: chat.messages[1]!.id });
    expect(chat.error).toBeUndefined();
    expect(ran).toEqual(['weather Rome']);
    expect(chat.messages.map(shown)).toEqual([['text:Weather in Rome?'], ['step', 'tool-get_weather:output-available:{"city":"Rome","forecast":"sunny"}:tabagent', 'step', 'text:Warm and sunny.']]);
    expect((await new TabAgentChatTransport({ agent, tools: [weather] }).messages(chat.id)).map(shown)).toEqual(chat.messages.map(shown));
    agent.close();
  });
});

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
