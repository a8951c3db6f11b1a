import type { ChatMessage, ToolResultRecord } from '../shared/chat.js';
import type { JsonValue } from '../shared/json.js';
import type { ChatSettings } from '../shared/chat.js';

/** What a chat list shows. */
export interface ChatSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
}

/** A stored chat, without its messages (they are records of their own). */
export interface ChatRecord extends ChatSummary {
  /** Counts every change (commit, rename); a write names the version it expects, so no tab writes over another's. */
  version: number;
  /**
   * Counts the writes that dropped messages (regenerate, rewind, edit; absent:
   * none): a copy that saw another count reads the messages again from the
   * start, as the chat may end as long as it did with other messages.
   */
  rewound?: number;
  settings: ChatSettings;
  /** The tools the chat was created with; code is not stored, so they must be given again to reopen it. */
  tools: Array<{ name: string; kind: 'managed' | 'raw' }>;
  /** Answers already given to the pending turn's calls. */
  answers: ToolResultRecord[];
  /** Pending calls whose handler started and has not finished (absent in chats stored before it existed). */
  started?: string[];
  /** Pending calls waiting for a person to approve or deny them. */
  awaiting?: string[];
  /** What started calls kept to be resumed (ToolContext.keep), by call id. */
  kept?: Record<string, JsonValue>;
  /** The answer being written, as far as it was shown: kept while it streams, cleared by the commit that ends it. */
  draft?: { text: string; updatedAt: number };
}

/** What `update` may change. */
export type ChatChanges = Partial<Pick<ChatRecord, 'title' | 'tools'>>;

/** One message, keyed by chat and position: appending is one small write, whatever the chat's length. */
export interface MessageRecord {
  chatId: string;
  seq: number;
  message: ChatMessage;
}

export interface StoredChat {
  record: ChatRecord;
  messages: ChatMessage[];
}

/** What a commit changes besides appending messages. */
export interface CommitMeta {
  /** The version the writer last saw; another is refused with StaleChatError. */
  expectedVersion: number;
  answers: ToolResultRecord[];
  /** Pending calls whose handler has started (default none). */
  started?: string[];
  /** Pending calls waiting for approval (default none). */
  awaiting?: string[];
  /** What started calls kept to be resumed (default none). */
  kept?: Record<string, JsonValue>;
  updatedAt: number;
  /** Set the title, if the chat has none yet. */
  title?: string;
  /**
   * This commit ends the answer its writer was keeping as the draft. Without
   * it, a draft on the record is someone else's, left by a tab that closed
   * mid-answer: the commit is refused (StaleChatError) rather than drop it
   * unseen, and the writer keeps it as an interrupted answer first.
   */
  endsDraft?: boolean;
  /**
   * Stands for the writer's hold on the chat's lock across tabs (a new object
   * each time the lock is taken; none without Web Locks). Every writer of a
   * stored chat takes that lock, so under one hold nobody else writes it: a
   * store may skip re-reading the record it wrote or checked under the same
   * hold.
   */
  owner?: object;
}

/** Where chats live: IndexedDB, or memory when it is off or unavailable. */
export interface ChatStore {
  readonly kind: 'indexeddb' | 'memory';
  create(record: ChatRecord): Promise<void>;
  /** Append messages at the chat's current end (one transaction); returns the new version. */
  append(chatId: string, messages: ChatMessage[], meta: CommitMeta): Promise<number>;
  /** Keep the answer being written (no version change: only the chat's running work writes it). */
  saveDraft(chatId: string, text: string): Promise<void>;
  /**
   * Drop the messages from position `count` on and append `messages` in
   * their place (regenerate, rewind, edit), in one write: all of it or none.
   * Returns the new version.
   */
  rewind(chatId: string, count: number, messages: ChatMessage[], meta: CommitMeta): Promise<number>;
  get(chatId: string): Promise<ChatRecord | undefined>;
  /** The chat's messages from position `from` on. */
  messages(chatId: string, from?: number): Promise<ChatMessage[]>;
  list(): Promise<ChatSummary[]>;
  /** Change the title or the tools' list; returns the new version. */
  update(chatId: string, changes: ChatChanges): Promise<number>;
  delete(chatId: string): Promise<void>;
  /**
   * Write a whole chat as a new one (imports), in one transaction: under its
   * own id when that is free, else under a fresh one. Returns the id used.
   */
  insert(chat: StoredChat): Promise<string>;
  close(): void;
}
