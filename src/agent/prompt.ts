// A one-shot task (agent.generate, agent.generateObject): its request, and
// its conversation, checked and turned into chat messages.
import { InvalidOptionsError } from '../errors/index.js';
import type { ChatMessage } from '../shared/chat.js';
import type { ChatOptions, SendOptions } from '../chat/chat-options.js';
import type { GenerateObjectOptions } from '../chat/object-stream.js';

/** A message of a one-shot conversation: text only. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** The conversation of a one-shot task: a prompt, or messages that end with the user's. */
export type Prompt = { prompt: string; messages?: undefined } | { messages: PromptMessage[]; prompt?: undefined };

/** `agent.generate`: a chat's options and a send's, and the conversation. Nothing is stored. */
export type GenerateRequest = ChatOptions & Pick<SendOptions, 'signal' | 'returnToolRequests' | 'activeTools'> & Prompt;

/** `agent.generateObject`: the conversation, the schema, and the chat settings that matter for one answer. */
export type GenerateObjectRequest<T> = Omit<GenerateObjectOptions<T>, 'prompt'> & Pick<ChatOptions, 'system' | 'grammar' | 'context'> & Prompt;

export function promptMessages(conversation: Prompt): PromptMessage[] {
  const { prompt, messages } = conversation;
  if (prompt !== undefined && messages !== undefined) throw new InvalidOptionsError('prompt', 'give a prompt or messages, not both');
  const turns = messages ?? [{ role: 'user' as const, content: prompt as string }];
  if (!Array.isArray(turns) || turns.length === 0) throw new InvalidOptionsError('messages', 'must be a non-empty array');
  turns.forEach((m, i) => {
    if ((m?.role !== 'user' && m?.role !== 'assistant') || typeof m.content !== 'string') {
      throw new InvalidOptionsError(`messages[${i}]`, "must be { role: 'user' | 'assistant', content: string }");
    }
  });
  const last = turns.at(-1)!;
  if (last.role !== 'user' || last.content.trim() === '') throw new InvalidOptionsError(messages ? 'messages' : 'prompt', 'must end with a non-empty user message');
  return turns;
}

export function toChatMessage(message: PromptMessage): ChatMessage {
  const createdAt = Date.now();
  if (message.role === 'user') return { role: 'user', content: message.content, createdAt };
  // The app's words, not the model's output: the model reads them as data.
  return { role: 'assistant', raw: message.content, text: message.content, reasoning: '', toolCalls: [], finishReason: 'stop', foreign: true, createdAt };
}
