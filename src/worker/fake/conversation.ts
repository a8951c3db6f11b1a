// A conversation rendered the way WebLLM 0.2.86 renders it with a model's MLC
// conversation template (Conversation.getPromptArray in its lib/index.js), and
// compared the way WebLLM decides whether its KV cache can be reused
// (compareConversationObject). Text only: tabagent sends no images.
import type { ConvTemplate } from '../../protocol/conv-templates.js';
import type { EngineMessage } from '../../shared/tool-protocol.js';
import { webllmError } from './webllm-error.js';

type Role = 'user' | 'assistant' | 'tool';

/** What WebLLM keeps of a conversation: the system override and the turns. */
export interface Conversation {
  system: string | undefined;
  messages: Array<{ role: Role; content: string }>;
}

/** WebLLM writes this after the reply header when thinking is off (`enable_thinking: false`). */
export const EMPTY_THINKING = '<think>\n\n</think>\n\n';

/**
 * The conversation of a request, without its last message (which WebLLM
 * prefills as the new input), refusing what WebLLM refuses.
 */
export function conversationOf(messages: readonly EngineMessage[], template: ConvTemplate): Conversation {
  const conversation: Conversation = { system: undefined, messages: [] };
  messages.slice(0, -1).forEach((message, i) => {
    if (message.role === 'system') {
      if (i !== 0) throw webllmError('SystemMessageOrderError', 'System prompt should always be the first message in `messages`.');
      conversation.system = message.content;
    } else {
      append(conversation, message.role, message.content, template);
    }
  });
  return conversation;
}

export function append(conversation: Conversation, role: Role, content: string, template: ConvTemplate): void {
  if (!Object.hasOwn(template.roles, role)) throw webllmError('Error', `Role is not supported: ${role}`);
  conversation.messages.push({ role, content });
}

/** Same system override and the same turns, byte for byte. */
export function sameConversation(a: Conversation, b: Conversation): boolean {
  return a.system === b.system && a.messages.length === b.messages.length && a.messages.every((m, i) => m.role === b.messages[i]!.role && m.content === b.messages[i]!.content);
}

function systemPrompt(conversation: Conversation, template: ConvTemplate): string {
  const message = conversation.system ?? template.system_message;
  if (message === '' && template.render_empty_system_message === false) return '';
  return template.system_template.replace('{system_message}', message);
}

const PLACEHOLDER: Record<Role, string> = { user: '{user_message}', assistant: '{assistant_message}', tool: '{tool_message}' };

function sep(value: string | undefined): string {
  return value ?? ': ';
}

/**
 * The prompt pieces WebLLM tokenizes: the system prompt, each message from
 * `from` on, then the assistant's reply header (with the empty think block
 * when thinking is off).
 */
export function promptPieces(conversation: Conversation, template: ConvTemplate, from: number, emptyThinking: boolean): string[] {
  const system = systemPrompt(conversation, template);
  const pieces = from === 0 && system !== '' ? [system] : [];
  conversation.messages.forEach(({ role, content }, i) => {
    if (i < from) return;
    let text = template.role_templates?.[role]?.replace(PLACEHOLDER[role], content) ?? content;
    text = text.replace('{function_string}', '');
    const prefix = template.add_role_after_system_message === false && system !== '' && i === 0 ? '' : template.roles[role]! + sep(template.role_content_sep);
    pieces.push(prefix + text + template.seps[i % template.seps.length]);
  });
  const assistant = template.roles.assistant;
  pieces.push(emptyThinking ? assistant + sep(template.role_content_sep) + EMPTY_THINKING : assistant + sep(template.role_empty_sep));
  return pieces;
}
