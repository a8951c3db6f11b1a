// The chats: which one is open, the list in the sidebar, and what a person
// does with them (send, stop, regenerate, open, rename, export, import,
// delete). The store works with or without a model, so all but sending work
// while a model downloads, or when none can run.
import type { Agent, ApprovalDecision, ChatOptions, ToolCallInfo, ToolEntry } from '../src/index.js';
import { ChatSession } from './chat-session.js';
import { importFailureText } from './error-text.js';
import { demoTools } from './tools.js';
import { approvalQuestion } from './ui/approval.js';
import type { ChatList } from './ui/chat-list.js';
import type { ConfirmDialog } from './ui/dialog.js';
import { h } from './ui/dom.js';
import { downloadJson, fileNameFor } from './ui/download.js';
import type { Toasts } from './ui/toast.js';
import type { Transcript } from './ui/transcript.js';

const SYSTEM = 'You are a helpful assistant inside a web page. Use the tools when they help. Keep answers short; you may use Markdown.';
const SAVED_CHAT = 'tabagent-demo:chat';
const SUGGESTIONS = ['What is the weather in Boston?', 'What page am I on?', 'Delete notes.txt', 'Tell me a long story', 'Show me some HTML'];

export interface ChatsView {
  transcript: Transcript;
  list: ChatList;
  dialog: ConfirmDialog;
  toasts: Toasts;
  /** A run starts or ends (the composer's Send becomes Stop). */
  busy(busy: boolean): void;
  /** What the empty chat says, given the model that answers (or that none does yet). */
  emptyState(): { title: string; note: string; action?: { label: string; run: () => void } };
  modelLoading(): boolean;
}

export class Chats {
  /** The open chat; null for a new chat, which is stored only once something is said in it. */
  #session: ChatSession | null = null;
  /** The demo's tools, and an MCP server's once one is connected (?mcp=…). */
  #tools: ToolEntry[] = [...demoTools];
  #running: AbortController | null = null;
  #run: Promise<void> | null = null;
  #listRefresh = 0;

  constructor(
    private readonly agent: Agent,
    private readonly view: ChatsView,
  ) {}

  get running(): boolean {
    return this.#running !== null;
  }

  /** The chat left open last time, if it is still there; else a new one. */
  async restore(): Promise<void> {
    const saved = localStorage.getItem(SAVED_CHAT);
    const chats = await this.agent.listChats();
    if (saved && chats.some((c) => c.id === saved)) {
      // A chat that cannot be opened (a tool it used is gone, say) just means a new one.
      if (await this.open(saved).then(() => true, () => false)) return;
    }
    this.showEmpty();
    await this.refreshList();
  }

  send(text: string): void {
    void this.#exclusive((signal) => this.#sendIn(text, signal));
  }

  regenerate(): void {
    const session = this.#session;
    if (session) void this.#exclusive((signal) => session.regenerate(signal));
  }

  /** Stop the reply being written, and wait until it has settled. */
  async stop(): Promise<void> {
    this.#running?.abort();
    await this.#run;
  }

  async open(id: string): Promise<void> {
    if (this.#session?.chat.id === id) return;
    await this.stop();
    const chat = await this.agent.openChat(id, { ...this.#chatOptions(), allowMissingTools: true });
    const session = new ChatSession(chat, this.view.transcript, this.#hooks());
    this.#attach(session);
    session.showHistory(true);
    await this.refreshList();
  }

  async startNew(): Promise<void> {
    await this.stop();
    this.#attach(null);
    this.showEmpty();
    await this.refreshList();
  }

  async rename(id: string, title: string): Promise<void> {
    if (this.#session?.chat.id === id) {
      await this.#session.chat.rename(title);
    } else {
      // A chat that is not open is renamed through a short-lived copy of it.
      const chat = await this.agent.openChat(id, { tools: this.#tools, allowMissingTools: true });
      try {
        await chat.rename(title);
      } finally {
        chat.close();
      }
    }
    await this.refreshList();
  }

  async remove(id: string, title: string): Promise<void> {
    const sure = await this.view.dialog.ask({
      title: 'Delete this chat?',
      body: [h('p', {}, '“', h('strong', { text: title }), '” and all its messages will be deleted from this browser. This cannot be undone.')],
      confirm: 'Delete',
      cancel: 'Keep it',
      danger: true,
    });
    if (!sure) return;
    if (this.#session?.chat.id === id) {
      await this.stop();
      this.#attach(null);
      this.showEmpty();
    }
    await this.agent.deleteChat(id);
    await this.refreshList();
    this.view.toasts.show(`Deleted “${title}”.`);
  }

  async exportChat(id: string, title: string): Promise<void> {
    downloadJson(fileNameFor(title), await this.agent.exportChat(id));
  }

  async importFile(file: File): Promise<void> {
    let summary;
    try {
      summary = await this.agent.importChat(await file.text());
    } catch (error) {
      this.view.toasts.show(importFailureText(file.name, error), 'error');
      return;
    }
    this.view.toasts.show(`Imported “${summary.title || 'chat'}”.`);
    await this.open(summary.id);
  }

  /** The empty chat, for a new chat (and again when the model changes, since it says which answers). */
  showEmpty(): void {
    if (this.#session) return;
    const state = this.view.emptyState();
    this.view.transcript.empty(state.action ? state : { ...state, suggestions: SUGGESTIONS, pick: (text) => this.send(text) });
  }

  async refreshList(): Promise<void> {
    this.view.list.render(await this.agent.listChats(), this.#session?.chat.id ?? null);
  }

  /** Chats change in bursts (one commit per hop): redraw the list once per burst. */
  #scheduleListRefresh(): void {
    clearTimeout(this.#listRefresh);
    this.#listRefresh = window.setTimeout(() => void this.refreshList().catch(() => undefined), 150);
  }

  async #sendIn(text: string, signal: AbortSignal): Promise<void> {
    let session = this.#session;
    if (!session) {
      try {
        const chat = await this.agent.newChat({ system: SYSTEM, ...this.#chatOptions() });
        session = new ChatSession(chat, this.view.transcript, this.#hooks());
        this.#attach(session);
      } catch (error) {
        this.view.toasts.show(`Could not start the chat: ${(error as Error).message}`, 'error');
        return;
      }
    }
    await session.send(text, signal);
  }

  /** One run at a time in this tab; Escape or Stop aborts it. */
  async #exclusive(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (this.#running) return;
    const running = (this.#running = new AbortController());
    // A stopped run withdraws its approval question: no one is waiting for the answer any more.
    running.signal.addEventListener('abort', () => this.view.dialog.dismiss(), { once: true });
    this.view.busy(true);
    this.#run = work(running.signal);
    await this.#run;
    this.#running = null;
    this.#run = null;
    this.view.busy(false);
    await this.refreshList().catch(() => undefined);
  }

  #attach(session: ChatSession | null): void {
    this.#session?.close();
    this.#session = session;
    if (session) localStorage.setItem(SAVED_CHAT, session.chat.id);
    else localStorage.removeItem(SAVED_CHAT);
  }

  #hooks() {
    return {
      messages: () => this.#scheduleListRefresh(),
      regenerate: () => this.regenerate(),
      modelLoading: () => this.view.modelLoading(),
    };
  }

  /** More tools for every chat: the one open now, and those opened or started after. */
  async addTools(tools: ToolEntry): Promise<void> {
    this.#tools = [...this.#tools, tools];
    await this.#session?.chat.setTools(this.#tools);
  }

  #chatOptions(): ChatOptions {
    // Approval is asked of the person, in the page: the run waits on the dialog's answer.
    return { tools: this.#tools, approve: (call) => this.#approve(call), maxConcurrentTools: 2 };
  }

  async #approve(call: ToolCallInfo): Promise<ApprovalDecision> {
    this.#session?.card(call.callId)?.awaitingApproval();
    const tool = this.#session?.chat.tools.find((t) => t.name === call.toolName);
    const allowed = await this.view.dialog.ask(approvalQuestion(call, tool?.description));
    return allowed ? true : { approved: false, reason: 'the user denied it' };
  }
}
