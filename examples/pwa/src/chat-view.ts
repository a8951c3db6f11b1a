// The conversation on screen. Everything the model or a tool wrote is set as
// textContent, never as HTML: model output is untrusted text.
import type { ChatMessage, ToolResultRecord } from '../../../src/index.js';

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
    this.#reveal(p);
    return p;
  }

  /** More of a reply streamed in: keep it in view, unless the reader scrolled up to read something else. */
  extend(message: HTMLElement, text: string): void {
    const following = atEnd();
    message.textContent += text;
    if (following) this.#reveal(message);
  }

  /** A stored conversation, as it was shown while it happened, scrolled to its end. */
  showMessages(messages: readonly ChatMessage[]): void {
    this.clear();
    for (const message of messages) {
      if (message.role === 'user') this.add('user', message.content);
      else if (message.role === 'assistant') {
        if (message.text.trim()) this.add('assistant', message.text);
        const said = message.text.trim() !== '' || message.reasoning.trim() !== '';
        for (const call of message.toolCalls) this.add('tool', callLine(call.name, call.arguments));
        // tabagent stops a reply that is only whitespace as it stops one at the token limit: say which it was.
        if (message.finishReason === 'length') this.add('note', said || message.toolCalls.length ? 'Cut off at the token limit.' : 'Cut off: the model wrote only blank space.');
      } else {
        for (const result of message.results) this.add('tool', resultLine(result));
      }
    }
  }

  /** Its bottom above the composer (the CSS gives messages a scroll margin the composer's height). */
  #reveal(message: HTMLElement): void {
    message.scrollIntoView({ block: 'end' });
  }
}

/** The page is scrolled to (near) its end. */
function atEnd(): boolean {
  return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 80;
}

export function callLine(name: string, args: unknown): string {
  return `→ ${name}(${JSON.stringify(args)})`;
}

export function resultLine(result: Pick<ToolResultRecord, 'name' | 'content' | 'isError'>): string {
  return `← ${result.name}${result.isError ? ' failed' : ''}: ${result.content}`;
}
