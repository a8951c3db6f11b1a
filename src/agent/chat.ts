// A conversation as the app uses it: send, answer tool calls, stream, rename.
// Its stored state, and the one-run-at-a-time rules, live in ChatState.
import { ChatClosedError, InvalidOptionsError, PendingToolCallsError, UnknownToolCallError, UnknownToolError } from '../errors/index.js';
import type { ChatModel } from '../model/types.js';
import type { ToolChoice } from '../protocol/types.js';
import type { ChatStore } from '../store/records.js';
import type { TabSync } from '../store/tab-sync.js';
import { encodeError, encodeResult } from '../tools/encode-result.js';
import type { ManagedTool, Tool } from '../tools/types.js';
import type { ChatEvents } from './chat-events.js';
import { ChatState } from './chat-state.js';
import { ChatStream } from './chat-stream.js';
import { ContextWindow, type ContextOptions } from './context-window.js';
import { Emitter } from './events.js';
import type { ToolHooks } from './hooks.js';
import { emptyStats, runLoop, type ChatSettings } from './loop.js';
import { execute, finish, prepare, type CallEnvironment, type CallOutcome } from './run-call.js';
import type { ToolCallInfo } from './hooks.js';
import type { ToolSet } from './tool-set.js';
import type { AssistantMessage, ChatMessage, Reply, ToolCall, ToolResultRecord } from './types.js';

export interface SendOptions {
  /** Abort the run: generation stops, running handlers see `ctx.signal` abort, the call rejects with the abort reason. */
  signal?: AbortSignal;
  /** Return every tool call to the caller instead of running managed tools. */
  returnToolRequests?: boolean;
  /** Tool choice for this run's first model call (the chat's default otherwise). */
  toolChoice?: ToolChoice;
}

type TextListener = (delta: string, hop: number) => void;

export interface ToolResultInput {
  callId: string;
  /** Any JSON value; it is what the model reads. */
  result: unknown;
}

export interface ChatInit {
  id: string;
  title: string;
  version: number;
  model: ChatModel;
  tools: ToolSet;
  settings: ChatSettings;
  hooks: ToolHooks;
  store: ChatStore;
  sync: TabSync;
  messages?: ChatMessage[];
  answers?: ToolResultRecord[];
  started?: string[];
  context?: ContextOptions;
}

export class Chat extends Emitter<ChatEvents> {
  readonly id: string;
  readonly #state: ChatState;
  readonly #model: ChatModel;
  readonly #tools: ToolSet;
  readonly #settings: ChatSettings;
  readonly #hooks: ToolHooks;
  readonly #window: ContextWindow;

  constructor(init: ChatInit) {
    super();
    this.id = init.id;
    this.#model = init.model;
    this.#tools = init.tools;
    this.#settings = init.settings;
    this.#hooks = init.hooks;
    const model = init.model;
    this.#window = new ContextWindow({ ...init.context, modelWindow: () => model.info.contextWindow });
    this.#state = new ChatState({ ...init, onChange: (count) => this.emit('messages', { chatId: this.id, count }) });
  }

  get title(): string {
    return this.#state.title;
  }

  /** The conversation so far (a copy). */
  get messages(): ChatMessage[] {
    return [...this.#state.messages];
  }

  /** Calls of the last turn still waiting for an answer. */
  get pendingToolCalls(): ToolCall[] {
    return this.#state.pendingToolCalls;
  }

  get tools(): readonly Tool[] {
    return this.#tools.names.map((n) => this.#tools.get(n)!);
  }

  /** Send a user message and run the tool loop until the model is done or needs the caller. */
  send(text: string, options: SendOptions = {}): Promise<Reply> {
    return this.#send(text, options);
  }

  /** `send`, streamed: text chunks as the model writes them across every hop, then one `final` chunk with the Reply. */
  sendStream(text: string, options: SendOptions = {}): ChatStream {
    return new ChatStream((onText, signal) => this.#send(text, { ...options, signal }, onText), options.signal);
  }

  /** Answer one pending call. Once the turn's calls are all answered, the model runs again. */
  sendToolResult(callId: string, result: unknown, options: SendOptions = {}): Promise<Reply> {
    return this.sendToolResults([{ callId, result }], options);
  }

  /** Answer several pending calls at once. Unknown or already answered ids reject, changing nothing. */
  sendToolResults(results: readonly ToolResultInput[], options: SendOptions = {}): Promise<Reply> {
    return this.#sendResults(results, options);
  }

  /** `sendToolResults`, streamed like `sendStream`. */
  sendToolResultsStream(results: readonly ToolResultInput[], options: SendOptions = {}): ChatStream {
    return new ChatStream((onText, signal) => this.#sendResults(results, { ...options, signal }, onText), options.signal);
  }

  /**
   * Run a pending call of a managed tool by hand (a mixed turn, or
   * `returnToolRequests`), and answer it with the result, as sendToolResult would.
   */
  runTool(call: ToolCall, options: SendOptions = {}): Promise<Reply> {
    // The tool runs before anything is written: catch up first, so it never runs twice.
    return this.#state.exclusive(
      async () => {
        const [pending] = this.#claim([call?.id]);
        const managed = this.#tools.managed(pending!.name);
        if (!managed) throw new UnknownToolError(pending!.name, this.#managedNames(), 'is not a managed tool of this chat');
        const env: CallEnvironment = {
          signal: options.signal ?? new AbortController().signal,
          maxResultChars: this.#settings.maxResultChars,
          hooks: this.#hooks,
          emit: (type, event) => this.emit(type, event),
        };
        const prepared = await prepare(managed, pending!, env);
        const outcome = prepared.run ? await this.#runStarted(managed, prepared.info, env) : prepared.outcome;
        if (outcome.ended) this.emit('tool-end', outcome.ended);
        if (outcome.failure) {
          // It ended (badly): no longer started, still pending.
          await this.#state.commit([], { answers: this.#state.answers, started: this.#state.started.filter((id) => id !== pending!.id) });
          throw outcome.failure;
        }
        return this.#answer([outcome.record], options);
      },
      options.signal,
      true,
    );
  }

  /** Run a prepared call's handler, marked started on disk first, as the loop does: a closed tab then reports it interrupted, never reruns it. */
  async #runStarted(tool: ManagedTool, info: ToolCallInfo, env: CallEnvironment): Promise<CallOutcome> {
    await this.#state.commit([], { answers: this.#state.answers, started: [...new Set([...this.#state.started, info.callId])] });
    return finish(tool, info, await execute(tool, info, env), env, env.maxResultChars);
  }

  /** Answer every pending call with an error result without running the model, so the chat can move on. */
  cancelToolCalls(reason = 'The call was cancelled before it ran.'): Promise<void> {
    return this.#state.exclusive(async () => {
      const turn = this.#state.pendingTurn;
      const pending = this.#state.pendingToolCalls;
      if (!turn || pending.length === 0) return;
      const records = pending.map((c) => ({ callId: c.id, name: c.name, content: encodeError(reason), isError: true }));
      await this.#state.commit([{ role: 'tool', results: inCallOrder(turn, [...this.#state.answers, ...records]), createdAt: Date.now() }]);
    });
  }

  /**
   * Replace the last answer: it is dropped (stored and here) and the model
   * answers again from the same conversation — "try again". The last message
   * must be an answer with no calls pending (an interrupted one counts).
   */
  regenerate(options: SendOptions = {}): Promise<Reply> {
    return this.#state.exclusive(
      async () => {
        options.signal?.throwIfAborted();
        const last = this.#state.messages.at(-1);
        if (last?.role !== 'assistant') throw new InvalidOptionsError('regenerate', 'the chat has no answer to replace');
        const pending = this.#state.pendingToolCalls;
        if (pending.length) throw new PendingToolCallsError(pending);
        const choice = this.#choice(options);
        await this.#state.truncate(this.#state.messages.length - 1);
        return this.#run(options, choice);
      },
      options.signal,
      true,
    );
  }

  /** @internal Opening a chat: an answer a closed tab was writing shows as interrupted. */
  recoverDraft(): Promise<void> {
    return this.#state.recoverDraft();
  }

  /** Rename the chat (stored at once). */
  rename(title: string): Promise<void> {
    if (typeof title !== 'string') return Promise.reject(new InvalidOptionsError('title', 'must be a string'));
    return this.#state.exclusive(() => this.#state.rename(title));
  }

  /** Stop accepting work. Runs already queued still reject with ChatClosedError. */
  close(): void {
    this.#state.close(new ChatClosedError(this.id));
  }

  /** @internal The agent closing (or deleting the chat) closes it. */
  closeWith(error: ChatClosedError): void {
    this.#state.close(error);
  }

  #send(text: string, options: SendOptions, onText?: TextListener): Promise<Reply> {
    if (typeof text !== 'string' || text.trim() === '') return Promise.reject(new InvalidOptionsError('text', 'must be a non-empty string'));
    return this.#state.exclusive(async () => {
      options.signal?.throwIfAborted();
      const pending = this.#state.pendingToolCalls;
      if (pending.length) throw new PendingToolCallsError(pending);
      const choice = this.#choice(options);
      await this.#state.commit([{ role: 'user', content: text, createdAt: Date.now() }], { title: this.#state.title ? undefined : titleFrom(text) });
      return this.#run(options, choice, onText);
    }, options.signal);
  }

  #sendResults(results: readonly ToolResultInput[], options: SendOptions, onText?: TextListener): Promise<Reply> {
    if (!Array.isArray(results) || results.length === 0) {
      return Promise.reject(new InvalidOptionsError('results', 'must be a non-empty array of { callId, result }'));
    }
    return this.#state.exclusive(async () => {
      options.signal?.throwIfAborted();
      const calls = this.#claim(results.map((r) => r?.callId));
      const records = calls.map((call, i) => ({
        callId: call.id,
        name: call.name,
        content: encodeResult(results[i]!.result, { toolName: call.name, callId: call.id }, this.#settings.maxResultChars),
        isError: false,
      }));
      return this.#answer(records, options, onText);
    }, options.signal);
  }

  #choice(options: SendOptions): ToolChoice {
    const choice = options.toolChoice ?? this.#settings.toolChoice;
    this.#tools.checkChoice(choice, 'toolChoice');
    return choice;
  }

  /** The pending calls these ids name; throws (changing nothing) on any unknown, answered or repeated id. */
  #claim(ids: readonly unknown[]): ToolCall[] {
    const pending = this.#state.pendingToolCalls;
    const seen = new Set<string>();
    return ids.map((id) => {
      const call = typeof id === 'string' && !seen.has(id) ? pending.find((c) => c.id === id) : undefined;
      if (!call) throw new UnknownToolCallError(String(id), pending.map((c) => c.id));
      seen.add(call.id);
      return call;
    });
  }

  /** Record answers; once every call of the turn has one, they go to the model as one message and the loop runs on. */
  async #answer(records: ToolResultRecord[], options: SendOptions, onText?: TextListener): Promise<Reply> {
    const turn = this.#state.pendingTurn!;
    const answers = [...this.#state.answers, ...records];
    if (answers.length < turn.toolCalls.length) {
      // Other calls' started marks stay: an interrupted call is still interrupted.
      const answered = new Set(answers.map((a) => a.callId));
      await this.#state.commit([], { answers, started: this.#state.started.filter((id) => !answered.has(id)) });
      return { text: turn.text, reasoning: turn.reasoning, toolCalls: this.#state.pendingToolCalls, finishReason: turn.finishReason, stats: emptyStats() };
    }
    const choice = this.#choice(options);
    await this.#state.commit([{ role: 'tool', results: inCallOrder(turn, answers), createdAt: Date.now() }]);
    return this.#run(options, choice, onText);
  }

  #run(options: SendOptions, toolChoice: ToolChoice, onText?: TextListener): Promise<Reply> {
    return runLoop(
      {
        model: this.#model,
        tools: this.#tools,
        settings: this.#settings,
        hooks: this.#hooks,
        messages: this.#state.messages,
        commit: (messages, state) => this.#state.commit(messages, state),
        saveDraft: (text) => this.#state.saveDraft(text),
        window: this.#window,
        emit: (type, event) => this.emit(type, event),
        newCallId,
      },
      {
        signal: options.signal ?? new AbortController().signal,
        onText,
        returnToolRequests: options.returnToolRequests ?? false,
        toolChoice,
      },
    );
  }

  #managedNames(): string[] {
    return this.#tools.names.filter((n) => this.#tools.managed(n));
  }
}

function inCallOrder(turn: AssistantMessage, records: readonly ToolResultRecord[]): ToolResultRecord[] {
  return turn.toolCalls.map((c) => records.find((r) => r.callId === c.id)!);
}

/** A chat's default title: the start of its first message, on one line. */
function titleFrom(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function newCallId(): string {
  return `call_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
}
