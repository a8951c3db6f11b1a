// useChat on a stored tabagent chat: a ChatTransport (AI SDK UI) whose
// conversation is a chat of an agent, kept in IndexedDB. No server route: the
// model runs in the agent's worker, tools on the page, and the chat survives
// a reload (`transport.messages(id)` gives useChat its messages back).
//
// The stored chat is the conversation: each request sends it only what is
// new, read from the end of useChat's messages:
// - a user message: `chat.sendStream(text)`;
// - an assistant message whose calls the app answered: an approval's answer
//   (`addToolApprovalResponse`) is `chat.approve` / `chat.deny`, a raw tool's
//   output (`addToolOutput`) is `sendToolResultsStream`;
// - a regeneration: `chat.regenerate({ from })` of the run's last answer (the
//   run's earlier steps are streamed again first, as useChat dropped the
//   whole message), or, of a user message, `chat.edit` with its own text;
// - an edit (sendMessage with a messageId): `chat.edit`.
// useChat names the message to go back to in its own messages, which end
// where the chat is to go back to: the n-th user message there is the
// stored chat's n-th (its ids are random until a reload).
// approve, deny, regenerate and edit tell their run's parts to an internal
// `onPart` (chat/chat.ts): the page entry carries no streamed variants of them.
import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import type { Agent, OpenChatOptions } from '../agent/agent.js';
import type { Chat } from '../chat/chat.js';
import type { ChatOptions } from '../chat/chat-options.js';
import type { ChatEvents } from '../chat/chat-events.js';
import { ChatStream, toolPart, type StreamPart } from '../run/chat-stream.js';
import type { ToolResultInput } from '../calls/page-result.js';
import { InvalidOptionsError, MessageNotFoundError } from '../errors/index.js';
import type { ChatMessage, Reply } from '../shared/chat.js';
import { UiChunks } from './ui-chunks.js';
import { messageId, storedParts, uiMessagesOf } from './ui-messages.js';

export interface TabAgentChatTransportOptions extends ChatOptions {
  /** Whose model runs the chats, and where they are kept. */
  agent: Agent;
  /** Open a stored chat whose tools are not all given here (their calls come back to the app). */
  allowMissingTools?: boolean;
}

type Send = Parameters<ChatTransport<UIMessage>['sendMessages']>[0];

export class TabAgentChatTransport implements ChatTransport<UIMessage> {
  readonly #agent: Agent;
  readonly #options: ChatOptions;
  readonly #allowMissingTools: boolean;
  readonly #chats = new Map<string, Promise<Chat>>();

  constructor(options: TabAgentChatTransportOptions) {
    if (typeof options !== 'object' || options === null || typeof options.agent?.openChat !== 'function') {
      throw new InvalidOptionsError('agent', 'TabAgentChatTransport needs { agent } (from createAgent)');
    }
    const { agent, allowMissingTools = false, ...chatOptions } = options;
    this.#agent = agent;
    this.#options = chatOptions;
    this.#allowMissingTools = allowMissingTools;
  }

  /** Start a stored chat with the transport's options; its id is the `id` to give useChat. */
  async newChat(): Promise<string> {
    const chat = await this.#agent.newChat(this.#options);
    this.#chats.set(chat.id, Promise.resolve(chat));
    return chat.id;
  }

  /** A stored chat's messages as useChat shows them: give them as its `messages` after a reload. */
  async messages(chatId: string): Promise<UIMessage[]> {
    const chat = await this.#open(chatId);
    return uiMessagesOf(chat, runsToolOf(chat));
  }

  async sendMessages({ trigger, chatId, messageId: target, messages, abortSignal }: Send): Promise<ReadableStream<UIMessageChunk>> {
    const chat = await this.#open(chatId);
    const signal = abortSignal;
    if (trigger === 'regenerate-message') return this.#regenerate(chat, messages, target, signal);
    const last = messages.at(-1);
    // sendMessage({ messageId }): the edited message is the last of useChat's.
    if (last?.role === 'user' && target !== undefined) return edited(chat, storedUser(chat, messages, target, true), textOf(last), signal);
    if (last?.role === 'user') {
      // The run's message will stand after the user message the send commits.
      return stream(chat, { messageId: messageId(chat.id, chat.messages.length + 1) }, [() => chat.sendStream(textOf(last), { signal })]);
    }
    if (last?.role === 'assistant') return stream(chat, {}, answersIn(chat, last, signal));
    throw new InvalidOptionsError('messages', 'must end with a user message, or an assistant message whose calls the app answered');
  }

  /** A tabagent run is not left running when the page goes: there is never a stream to resume. */
  async reconnectToStream(): Promise<ReadableStream<UIMessageChunk> | null> {
    return null;
  }

  /** Close the chats this transport opened (their stored state stays). */
  close(): void {
    for (const chat of this.#chats.values()) void chat.then((c) => c.close(), () => undefined);
    this.#chats.clear();
  }

  #open(chatId: string): Promise<Chat> {
    let chat = this.#chats.get(chatId);
    if (!chat) {
      const { system: _, ...options } = this.#options;
      const open: OpenChatOptions = { ...options, allowMissingTools: this.#allowMissingTools };
      chat = this.#agent.openChat(chatId, open);
      // A chat that cannot be opened is tried again next time.
      chat.catch(() => this.#chats.delete(chatId));
      this.#chats.set(chatId, chat);
    }
    return chat;
  }

  /**
   * useChat dropped an answer (its messages end with the user message it
   * answered) or asks for a user message's answer again (`target` is that
   * message). An answer: the run's last step again, its earlier steps
   * streamed first. A user message's (or a run that stored no step): the
   * message sent again in its own place.
   */
  async #regenerate(chat: Chat, messages: UIMessage[], target: string | undefined, signal: AbortSignal | undefined): Promise<ReadableStream<UIMessageChunk>> {
    const last = messages.at(-1);
    if (last?.role !== 'user') throw new InvalidOptionsError('messages', 'a regeneration must follow a user message');
    const user = storedUser(chat, messages, target ?? last.id);
    const stored = chat.messages;
    let end = user + 1;
    while (end < stored.length && stored[end]!.role !== 'user') end++;
    let from = end - 1;
    while (from > user && stored[from]!.role !== 'assistant') from--;
    if (target === last.id || from === user) return edited(chat, user, textOf(last), signal);
    const kept = storedParts(stored.slice(user + 1, from), []);
    return stream(chat, { messageId: messageId(chat.id, user + 1), replay: kept }, [() => new ChatStream((onPart, inner) => chat.regenerate({ signal: inner, from }, onPart), signal)]);
  }
}

/**
 * The stored index of the user message useChat's messages end with: the
 * n-th user message there is the chat's n-th. The page's user messages must
 * say what the stored ones say (but the last, when the page edits it): else
 * the page shows a chat another tab has changed since, and the message it
 * names is not the stored chat's. `target` names it in the error.
 */
function storedUser(chat: Chat, messages: readonly UIMessage[], target: string, edited = false): number {
  const shown = messages.filter((m) => m.role === 'user');
  const stored = chat.messages.flatMap((m, index) => (m.role === 'user' ? [{ index, text: m.content }] : []));
  const agree = shown.length <= stored.length && shown.every((m, i) => (edited && i === shown.length - 1) || textOf(m) === stored[i]!.text);
  if (!shown.length || !agree) throw new MessageNotFoundError(chat.id, { messageId: target });
  return stored[shown.length - 1]!.index;
}

/** The user message at `index` edited to `text` (the same text: its answer again), and the run that answers it. */
function edited(chat: Chat, index: number, text: string, signal: AbortSignal | undefined): ReadableStream<UIMessageChunk> {
  return stream(chat, { messageId: messageId(chat.id, index + 1) }, [() => new ChatStream((onPart, inner) => chat.edit(index, text, { signal: inner }, onPart), signal)]);
}

function textOf(message: UIMessage): string {
  return message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/** Whether tabagent runs a tool's calls (a managed tool), or the app answers them. */
function runsToolOf(chat: Chat): (name: string) => boolean {
  return (name) => chat.tools.find((t) => t.name === name)?.kind === 'managed';
}

/** The answers in the last assistant message to the chat's pending calls, as the runs that give them. */
function answersIn(chat: Chat, message: UIMessage, signal: AbortSignal | undefined): Array<() => ChatStream> {
  const pending = new Map(chat.pendingToolCalls.map((c) => [c.id, c]));
  const runs: Array<() => ChatStream> = [];
  const results: ToolResultInput[] = [];
  for (const part of message.parts) {
    if (!(part.type === 'dynamic-tool' || part.type.startsWith('tool-')) || !('toolCallId' in part)) continue;
    const call = pending.get(part.toolCallId);
    if (!call) continue;
    if (part.state === 'approval-responded' && call.awaitingApproval) {
      const { approved, reason } = part.approval;
      runs.push(() => answered(chat, call.id, (onPart, inner) => (approved ? chat.approve(call.id, { signal: inner }, onPart) : chat.deny(call.id, reason, { signal: inner }, onPart)), signal));
    } else if (part.state === 'output-available' && !call.awaitingApproval) {
      results.push({ callId: call.id, result: part.output });
    } else if (part.state === 'output-error' && !call.awaitingApproval) {
      results.push({ callId: call.id, result: part.errorText, isError: true });
    }
  }
  if (results.length) runs.push(() => chat.sendToolResultsStream(results, { signal }));
  if (runs.length === 0) throw new InvalidOptionsError('messages', 'the last assistant message answers none of the calls the chat waits for');
  return runs;
}

/**
 * An approval's answer, streamed: the call's own events (it runs, or is
 * denied), as parts of the step that made it, then the run it lets go on.
 */
function answered(chat: Chat, callId: string, answer: (onPart: (part: StreamPart) => void, signal: AbortSignal) => Promise<Reply>, signal: AbortSignal | undefined): ChatStream {
  return new ChatStream((onPart, inner) => {
    const step = turnsSinceUser(chat.messages) - 1;
    const tell = <K extends 'tool-progress' | 'tool-end'>(type: K) => (event: ChatEvents[K]) => {
      const part = event.callId === callId ? toolPart(type, event, step) : undefined;
      if (part) onPart(part);
    };
    const stop = [chat.on('tool-progress', tell('tool-progress')), chat.on('tool-end', tell('tool-end'))];
    return answer(onPart, inner).finally(() => stop.forEach((off) => off()));
  }, signal);
}

function turnsSinceUser(messages: readonly ChatMessage[]): number {
  let count = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role !== 'user'; i--) if (messages[i]!.role === 'assistant') count++;
  return count;
}

/**
 * The runs' parts as one UI message stream: `start`, the parts, `finish`.
 * A run that fails errors the stream with its own error (typed, as
 * `useChat().error`); an abort (useChat's `stop()`) errors it with the
 * AbortError, which useChat takes as stopped.
 */
function stream(chat: Chat, start: { messageId?: string; replay?: ReturnType<typeof storedParts> }, runs: Array<() => ChatStream>): ReadableStream<UIMessageChunk> {
  let current: ChatStream | undefined;
  return new ReadableStream<UIMessageChunk>({
    async start(controller) {
      const chunks = new UiChunks((chunk) => controller.enqueue(chunk), runsToolOf(chat));
      controller.enqueue({ type: 'start', ...(start.messageId ? { messageId: start.messageId } : {}) });
      for (const part of start.replay ?? []) chunks.part(part);
      let reply: Reply | undefined;
      try {
        for (const run of runs) {
          current = run();
          for await (const part of current) {
            if (part.type === 'final') reply = part.reply;
            chunks.part(part);
          }
        }
      } catch (error) {
        controller.error(error);
        return;
      }
      chunks.finish(reply);
      controller.close();
    },
    cancel() {
      // The reader stopped listening: stop the run (its stream aborts it).
      void current?.return();
    },
  });
}
