// The conversation on screen. What the model or a tool wrote is set as
// textContent, never as HTML: model output and page text are untrusted.
import type { ChatMessage } from '../../../src/index.js';

/** `note`: a line about a reply (cut off), not part of it. */
export type Role = 'user' | 'assistant' | 'tool' | 'error' | 'note';

export class ChatView {
  constructor(private readonly log: HTMLElement) {}

  clear(): void {
    this.log.replaceChildren();
  }

  add(role: Role, text: string): HTMLElement {
    const p = document.createElement('p');
    p.className = `message ${role}`;
    p.textContent = text;
    this.log.append(p);
    p.scrollIntoView({ block: 'end' });
    return p;
  }

  extend(message: HTMLElement, text: string): void {
    message.textContent += text;
    message.scrollIntoView({ block: 'end' });
  }

  /** A stored chat, as it looked while it happened. */
  showMessages(messages: readonly ChatMessage[]): void {
    this.clear();
    for (const message of messages) {
      if (message.role === 'user') this.add('user', message.content);
      else if (message.role === 'assistant') {
        if (message.text.trim()) this.add('assistant', message.text);
        for (const call of message.toolCalls) this.add('tool', callLine(call.name, call.arguments));
        // tabagent stops a reply that is only whitespace as it stops one at the token limit: say which it was.
        if (message.finishReason === 'length') this.add('note', message.text.trim() || message.toolCalls.length ? 'Cut off at the token limit.' : 'Cut off: the model wrote only blank space.');
      } else {
        for (const result of message.results) this.add('tool', resultLine(result.name, result.content, result.isError));
      }
    }
  }
}

export function callLine(name: string, args: unknown): string {
  return `→ ${name}(${JSON.stringify(args)})`;
}

export function resultLine(name: string, content: string, isError: boolean): string {
  return `← ${name}${isError ? ' failed' : ''}: ${content}`;
}
