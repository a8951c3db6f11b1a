// The agent, src/agent/: what createAgent (create-agent.ts) gives an app,
// one model in one worker and the chats kept for it (this module), and its
// one-shot tasks (prompt.ts, loaded on demand). The top room of the page
// side: it imports chat/ and all below; only the entries and tabagent/ai-sdk
// import it.
import { AgentClosedError, ChatClosedError, ChatNotFoundError, MissingToolsError } from '../errors/index.js';
import type { ModelInfo } from '../shared/model.js';
import type { ChatExport } from '../store/chat-export.js';
import { askToPersist, currentStorage, memoryStore, type StorageInfo } from '../store/open-store.js';
import { listModels, type ListModelsOptions, type ModelListing } from '../model/list-models.js';
import type { ChatRecord, ChatStore, ChatSummary } from '../store/records.js';
import { TabSync } from '../store/tab-sync.js';
import { Chat } from '../chat/chat.js';
import type { ObjectReply, ObjectStream } from '../chat/object-stream.js';
import type { ChatMessage, Reply } from '../shared/chat.js';
import type { GenerateObjectRequest, GenerateRequest, Prompt } from './prompt.js';

export type { Prompt, PromptMessage } from './prompt.js';
export type { ModelWarning } from '../model/agent-model.js';
import { chatSettings, type ChatOptions } from '../chat/chat-options.js';
import { ToolSet } from '../calls/tool-set.js';
import { Emitter } from '../shared/emitter.js';
import type { AgentModel, ModelState, ModelStateChange, ModelWarning } from '../model/agent-model.js';
import type { ModelOptions } from '../model/model-session.js';

export interface OpenChatOptions extends Omit<ChatOptions, 'system'> {
  /** Open even if the stored chat used tools not given here (their calls then come back to you). */
  allowMissingTools?: boolean;
}

/** How a model is loaded: everything of createAgent's model options but the model. */
export interface LoadOptions extends Omit<ModelOptions, 'model'> {
  /** Cancel the load: the download stops, and the agent has no model ('idle'). */
  signal?: AbortSignal;
}

export type AgentEvents = {
  /** The model started loading, is ready, failed, or was cancelled ('idle'). */
  'model-state': ModelStateChange;
  /** The model loaded, but the app should know something of it: its own config names another template than tabagent's table (see `agent.model.templateMismatch`), once per load; or a fallback chain skipped an engine this device cannot run (`'engine-skipped'`, as it happens). */
  'model-warning': ModelWarning;
};

export class Agent extends Emitter<AgentEvents> {
  // Weakly held: a chat the app drops can be collected; these are only for closing.
  readonly #chats = new Set<WeakRef<Chat>>();
  readonly #forget = new FinalizationRegistry<WeakRef<Chat>>((ref) => this.#chats.delete(ref));
  #closed = false;

  /** @internal Made by createAgent. */
  constructor(
    private readonly session: AgentModel,
    /** createAgent's model options, for later loads. */
    private readonly defaults: Omit<ModelOptions, 'model'>,
    /** Where chats are kept, and why, when it is only memory. */
    storage: StorageInfo,
    private readonly store: ChatStore,
    private readonly sync: TabSync,
  ) {
    super();
    this.#storage = storage;
    session.onState = (change) => this.emit('model-state', change);
    session.onWarning = (warning) => this.emit('model-warning', warning);
  }

  #storage: StorageInfo;

  /** Where chats are kept (and why, when only in memory), as last checked: at start, or by `checkStorage()`. */
  get storage(): StorageInfo {
    return this.#storage;
  }

  /** Ask the browser now: whether it keeps this site's storage (`persisted`), and `usage` and `quota`. Updates `agent.storage`. */
  async checkStorage(): Promise<StorageInfo> {
    this.#check();
    return (this.#storage = await currentStorage(this.#storage));
  }

  /**
   * Ask the browser to keep this site's storage (chats and model weights)
   * until the user clears it: call it from a user gesture, or once the app
   * is installed, when browsers grant it. Resolves with the storage as it is
   * then (`persisted` asked again).
   */
  async persistStorage(): Promise<StorageInfo> {
    this.#check();
    await askToPersist();
    return this.checkStorage();
  }

  /** The loaded model. Throws ModelNotLoadedError (or the load's error) while there is none: see `ready` and `modelState`. */
  get model(): ModelInfo {
    return this.session.info;
  }

  /** Where the model stands: 'idle' (none asked for, or cancelled), 'loading', 'ready' or 'failed'. */
  get modelState(): ModelState {
    return this.session.state;
  }

  /**
   * Resolves with the model once it is ready (at once, or when the load in
   * flight ends). Rejects with the load's error when it failed, and with
   * ModelNotLoadedError when there is no model and none is loading.
   */
  get ready(): Promise<ModelInfo> {
    return this.session.ready();
  }

  /**
   * Load a model (or another one: chats carry on with it). Resolves when it is
   * ready. A load in flight is cancelled, and a model already loaded is let
   * go of first. Cancel with `signal`: the download stops, and the agent goes
   * back to 'idle'. The store and its chats work throughout.
   */
  load(model: ModelOptions['model'], options: LoadOptions = {}): Promise<ModelInfo> {
    if (this.#closed) return Promise.reject(new AgentClosedError());
    const { signal, ...rest } = options ?? {};
    return this.session.load({ ...this.defaults, ...rest, model }, signal).loaded;
  }

  /** WebLLM's prebuilt chat models, for a picker: what `listModels` says (no worker starts, WebLLM is not loaded). */
  models(options?: ListModelsOptions): Promise<ModelListing[]> {
    return listModels(options);
  }

  /**
   * Start a new worker and load the model again — or another one, e.g. a
   * smaller model after DeviceLostError. Open chats carry on with it. Use it
   * after WorkerCrashedError, DeviceLostError or a failed load.
   */
  async restart(changes: Partial<Pick<ModelOptions, 'model' | 'family' | 'grammar' | 'onProgress'>> = {}): Promise<ModelInfo> {
    this.#check();
    return this.session.restart(changes);
  }

  /** Start a chat; it is stored at once. */
  async newChat(options: ChatOptions = {}): Promise<Chat> {
    this.#check();
    const { tools, settings, hooks, context, controls } = chatSettings(options);
    const now = Date.now();
    const record: ChatRecord = {
      id: crypto.randomUUID(),
      title: '',
      createdAt: now,
      updatedAt: now,
      messageCount: 0,
      version: 0,
      settings,
      tools: [...tools.own],
      answers: [],
    };
    await this.store.create(record);
    return this.#track(new Chat({ id: record.id, title: '', version: 0, model: this.session, tools, settings, hooks, context, controls, store: this.store, sync: this.sync }));
  }

  /**
   * Reopen a stored chat with its tools (code is not stored). The chat
   * continues exactly where it stopped, pending tool calls included.
   */
  async openChat(id: string, options: OpenChatOptions = {}): Promise<Chat> {
    this.#check();
    const record = await this.store.get(id);
    if (!record) throw new ChatNotFoundError(id);
    const { allowMissingTools = false, ...overrides } = options;
    // An MCP server's tools are not asked for: the server decides which it offers now.
    const given = new Set(new ToolSet(overrides.tools ?? []).names);
    const missing = record.tools.map((t) => t.name).filter((name) => !given.has(name));
    if (missing.length && !allowMissingTools) throw new MissingToolsError(id, missing);
    // A stored choice the given tools cannot honour (a missing tool, or any tool when none are given) falls back to 'auto'.
    const stored = record.settings.toolChoice;
    const honoured = typeof stored === 'object' ? (given.has(stored.name) ? stored : 'auto') : stored === 'required' && given.size === 0 ? 'auto' : stored;
    const { tools, settings, hooks, context, controls } = chatSettings({ ...record.settings, toolChoice: honoured, ...definedOnly(overrides) });
    // An imported chat's system prompt stays the file's: data, as it was stored.
    if (record.settings.foreignSystem) settings.foreignSystem = true;
    const messages = await this.store.messages(id);
    const chat = this.#track(
      new Chat({ id, title: record.title, version: record.version, rewound: record.rewound, model: this.session, tools, settings, hooks, context, controls, store: this.store, sync: this.sync, messages, answers: record.answers, started: record.started, awaiting: record.awaiting, kept: record.kept }),
    );
    if (record.draft) await chat.recoverDraft();
    return chat;
  }

  /**
   * Run the tool loop once, on a conversation that is not stored: for one-shot
   * tasks. Resolves like `chat.send`, with the whole conversation as it ended
   * (calls left for you come back in `toolCalls`; answer them with a chat).
   */
  async generate(request: GenerateRequest): Promise<Reply & { messages: ChatMessage[] }> {
    const { prompt, messages, signal, returnToolRequests, activeTools, ...options } = request ?? ({} as GenerateRequest);
    const { chat, last } = await this.#oneShot({ prompt, messages } as Prompt, options);
    try {
      const reply = await chat.send(last, { signal, returnToolRequests, activeTools });
      return { ...reply, messages: chat.messages };
    } finally {
      chat.close();
    }
  }

  /** `chat.generateObject` without a stored chat: a JSON value that fits `schema`, typed. */
  async generateObject<T>(request: GenerateObjectRequest<T>): Promise<ObjectReply<T>> {
    const { prompt, messages, schema, signal, generation, ...options } = request ?? ({} as GenerateObjectRequest<T>);
    const { chat, last } = await this.#oneShot({ prompt, messages } as Prompt, options);
    try {
      return await chat.generateObject({ schema, prompt: last, signal, generation });
    } finally {
      chat.close();
    }
  }

  /** `generateObject`, streamed: the object as it grows, then `result`. */
  async generateObjectStream<T>(request: GenerateObjectRequest<T>): Promise<ObjectStream<T>> {
    const { prompt, messages, schema, signal, generation, ...options } = request ?? ({} as GenerateObjectRequest<T>);
    const { chat, last } = await this.#oneShot({ prompt, messages } as Prompt, options);
    const stream = chat.generateObjectStream({ schema, prompt: last, signal, generation });
    void stream.result.finally(() => chat.close()).catch(() => undefined);
    return stream;
  }

  /** A chat in memory only, holding the conversation up to its last user message. */
  async #oneShot(conversation: Prompt, options: ChatOptions): Promise<{ chat: Chat; last: string }> {
    this.#check();
    // Loaded only for one-shot requests: chats never need it.
    const { promptMessages, toChatMessage } = await import('./prompt.js');
    const turns = promptMessages(conversation);
    const { tools, settings, hooks, context, controls } = chatSettings(options);
    const store = await memoryStore();
    const id = crypto.randomUUID();
    await store.create({ id, title: '', createdAt: 0, updatedAt: 0, messageCount: 0, version: 0, settings, tools: [], answers: [] });
    const history = turns.slice(0, -1).map(toChatMessage);
    if (history.length) await store.append(id, history, { expectedVersion: 0, answers: [], updatedAt: 0 });
    const chat = new Chat({ id, title: '', version: history.length ? 1 : 0, model: this.session, tools, settings, hooks, context, controls, store, sync: new TabSync(`one-shot:${id}`, false), messages: history });
    return { chat, last: turns.at(-1)!.content };
  }

  /** Stored chats, newest first. */
  async listChats(): Promise<ChatSummary[]> {
    this.#check();
    return this.store.list();
  }

  /**
   * Delete a stored chat; open copies of it in this agent are closed. Work of
   * this agent running on it stops at its next write (ChatNotFoundError);
   * work of another tab or agent finishes first: deleting takes the chat's
   * lock, as every write to it does.
   */
  async deleteChat(id: string): Promise<void> {
    this.#check();
    const copies = [...this.#open()].filter((chat) => chat.id === id);
    const close = () => copies.forEach((chat) => chat.closeWith(new ChatClosedError(id)));
    if (!copies.some((chat) => chat.holdsLock)) {
      await this.sync.exclusive(id, () => this.store.delete(id));
      return close();
    }
    // The lock is this agent's own work's (perhaps the very tool that asked):
    // waiting for it could wait forever. That work writes nothing more, so
    // the copies are closed whether or not the delete lands.
    for (const chat of copies) chat.markDeleted();
    try {
      await this.store.delete(id);
    } finally {
      close();
    }
  }

  /** A stored chat as a versioned JSON document (see ChatExport). */
  async exportChat(id: string): Promise<ChatExport> {
    this.#check();
    const record = await this.store.get(id);
    if (!record) throw new ChatNotFoundError(id);
    const messages = await this.store.messages(id);
    // Loaded only when exporting, as the import's validator is only when importing.
    const { toChatExport } = await import('../store/chat-export.js');
    return toChatExport({ record, messages });
  }

  /**
   * Store a chat from an export (a JSON string or the parsed document). A bad
   * file rejects with InvalidChatExportError and nothing is written. A chat
   * whose id is taken is imported under a new id.
   */
  async importChat(data: unknown): Promise<ChatSummary> {
    this.#check();
    // Loaded only when importing: the validator is the only code that needs it.
    const { parseChatExport } = await import('../store/parse-chat-export.js');
    const chat = parseChatExport(data);
    const id = await this.store.insert(chat);
    const { title, createdAt, updatedAt } = chat.record;
    return { id, title, createdAt, updatedAt, messageCount: chat.messages.length };
  }

  /** Stop the worker and close every chat. Pending runs reject with AgentClosedError. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const chat of this.#open()) chat.closeWith(new AgentClosedError());
    this.session.close();
    this.sync.close();
    this.store.close();
  }

  #check(): void {
    if (this.#closed) throw new AgentClosedError();
  }

  #track(chat: Chat): Chat {
    const ref = new WeakRef(chat);
    this.#chats.add(ref);
    this.#forget.register(chat, ref);
    return chat;
  }

  *#open(): Generator<Chat> {
    for (const ref of this.#chats) {
      const chat = ref.deref();
      if (chat) yield chat;
    }
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
