// Chats in memory: `storage: false`, or when IndexedDB is unavailable. Values
// are cloned in and out, as IndexedDB would, so callers cannot share state.
import type { ChatMessage } from '../shared/chat.js';
import { ChatNotFoundError } from '../errors/index.js';
import { StaleChatError } from './stale-chat-error.js';
import type { ChatChanges, ChatRecord, ChatStore, ChatSummary, CommitMeta, StoredChat } from './records.js';
import { storageFailure } from './storage-failure.js';

export class MemoryChatStore implements ChatStore {
  readonly kind = 'memory';
  readonly #chats = new Map<string, { record: ChatRecord; messages: ChatMessage[] }>();

  async create(record: ChatRecord): Promise<void> {
    this.#chats.set(record.id, { record: clone(record), messages: [] });
  }

  async append(chatId: string, messages: ChatMessage[], meta: CommitMeta): Promise<number> {
    return this.#change(chatId, meta, (list) => list.push(...clone(messages)));
  }

  async saveDraft(chatId: string, text: string): Promise<void> {
    this.#chat(chatId).record.draft = { text, updatedAt: Date.now() };
  }

  async rewind(chatId: string, count: number, messages: ChatMessage[], meta: CommitMeta): Promise<number> {
    const added = clone(messages);
    return this.#change(chatId, meta, (list, record) => {
      list.splice(count, Infinity, ...added);
      record.rewound = (record.rewound ?? 0) + 1;
    });
  }

  /** One commit: the messages edited, the pending turn's state set, the draft ended, the version bumped. */
  #change(chatId: string, meta: CommitMeta, edit: (messages: ChatMessage[], record: ChatRecord) => void): number {
    const chat = this.#chat(chatId);
    if (chat.record.version !== meta.expectedVersion) throw new StaleChatError(chatId, meta.expectedVersion, chat.record.version);
    if (chat.record.draft && !meta.endsDraft) throw new StaleChatError(chatId, meta.expectedVersion, chat.record.version, true);
    edit(chat.messages, chat.record);
    const record = chat.record;
    record.messageCount = chat.messages.length;
    record.updatedAt = meta.updatedAt;
    record.answers = clone(meta.answers);
    record.started = [...(meta.started ?? [])];
    record.awaiting = [...(meta.awaiting ?? [])];
    if (meta.kept && Object.keys(meta.kept).length) record.kept = clone(meta.kept);
    else delete record.kept;
    delete record.draft;
    if (meta.title && !record.title) record.title = meta.title;
    return ++record.version;
  }

  async get(chatId: string): Promise<ChatRecord | undefined> {
    const chat = this.#chats.get(chatId);
    return chat && clone(chat.record);
  }

  async messages(chatId: string, from = 0): Promise<ChatMessage[]> {
    return clone(this.#chats.get(chatId)?.messages.slice(from) ?? []);
  }

  async list(): Promise<ChatSummary[]> {
    return [...this.#chats.values()]
      .map(({ record: { id, title, createdAt, updatedAt, messageCount } }) => ({ id, title, createdAt, updatedAt, messageCount }))
      .sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async update(chatId: string, changes: ChatChanges): Promise<number> {
    const { record } = this.#chat(chatId);
    Object.assign(record, clone(changes));
    return ++record.version;
  }

  async delete(chatId: string): Promise<void> {
    this.#chats.delete(chatId);
  }

  async insert({ record, messages }: StoredChat): Promise<string> {
    const id = this.#chats.has(record.id) ? crypto.randomUUID() : record.id;
    this.#chats.set(id, { record: clone({ ...record, id, messageCount: messages.length }), messages: clone(messages) });
    return id;
  }

  close(): void {}

  #chat(chatId: string) {
    const chat = this.#chats.get(chatId);
    if (!chat) throw new ChatNotFoundError(chatId);
    return chat;
  }
}

function clone<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch (cause) {
    throw storageFailure(cause);
  }
}
