// The chat on screen: which stored chat it is, and sending to it with the
// reply streamed in as the model writes it.
import type { Agent, Chat } from '../../../src/index.js';
import { callLine, resultLine, type ChatView } from './chat-view.js';
import { notesTools } from './notes-tools.js';

const SYSTEM = "You are a concise assistant that runs on the user's device. Use the notes tools to save and read the user's notes.";

export class ChatSession {
  #chat: Chat | null = null;
  #unsubscribe: Array<() => void> = [];

  constructor(
    private readonly agent: Agent,
    private readonly view: ChatView,
  ) {}

  get currentId(): string | null {
    return this.#chat?.id ?? null;
  }

  /** A fresh screen; the chat itself is created by the first message, so no empty chats pile up. */
  startNew(): void {
    this.#attach(null);
    this.view.clear();
  }

  async open(id: string): Promise<void> {
    // Tools are code, not data: a reopened chat gets them again.
    const chat = await this.agent.openChat(id, { tools: notesTools });
    this.#attach(chat);
    this.view.showMessages(chat.messages);
  }

  async send(text: string): Promise<void> {
    let chat = this.#chat;
    if (!chat) {
      chat = await this.agent.newChat({ system: SYSTEM, tools: notesTools });
      this.#attach(chat);
    }
    this.view.add('user', text);
    let bubble: HTMLElement | null = null;
    let step = -1;
    try {
      for await (const chunk of chat.sendStream(text)) {
        if (chunk.type !== 'text') continue;
        // Each model turn gets its own bubble, with the tool lines between them.
        if (!bubble || chunk.step !== step) (bubble = this.view.add('assistant', '')), (step = chunk.step);
        this.view.extend(bubble, chunk.text);
      }
    } catch (error) {
      this.view.add('error', `${(error as Error).name}: ${(error as Error).message}`);
      return;
    }
    // Redraw from what was stored: the streamed text and the tool events may
    // have interleaved on screen in a different order than they happened.
    this.view.showMessages(chat.messages);
  }

  #attach(chat: Chat | null): void {
    for (const off of this.#unsubscribe.splice(0)) off();
    this.#chat = chat;
    if (chat) {
      this.#unsubscribe.push(
        chat.on('tool-start', ({ toolName, input }) => void this.view.add('tool', callLine(toolName, input))),
        chat.on('tool-end', ({ toolName, content, isError }) => void this.view.add('tool', resultLine({ name: toolName, content, isError }))),
      );
    }
  }
}
