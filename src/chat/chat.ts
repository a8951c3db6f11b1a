// The chat, src/chat/: a conversation as the app uses it. Chat (this module)
// is the public surface and delegates: a message in and the run that
// answers it (chat-send.ts), answers to the calls a turn left pending
// (tool-answers.ts; a call run or denied by hand: run-pending.ts, loaded on
// demand, as the run itself is), going back to an earlier message (chat-rewind.ts), both
// through the plan and the run they start
// (chat-run.ts, on the chat's parts: ChatCore). Beside them the chat's
// stored state and its one-at-a-time rules (chat-state.ts), its events
// (chat-events.ts), its options and a send's (chat-options.ts), structured
// output (object-stream.ts). The room imports run/, calls/, sources/ (a chat
// as a tool: chat.asTool) and the layers below; the agent above opens chats.
import { type AgentClosedError, ChatClosedError, InvalidOptionsError } from '../errors/index.js';
import { modelWriter, type ChatModel } from '../shared/model.js';
import type { JsonSchema, JsonValue } from '../shared/json.js';
import type { ChatMessage, ChatSettings, Reply, ToolCall, ToolResultRecord } from '../shared/chat.js';
import { Emitter } from '../shared/emitter.js';
import type { ChatStore } from '../store/records.js';
import type { TabSync } from '../store/tab-sync.js';
import { objectOutput } from '../tools/object-output.js';
import type { ManagedTool, Tool, ToolEntry } from '../tools/types.js';
import { DEFAULT_DENIAL, type ToolHooks } from '../calls/hooks.js';
import type { ToolResultInput } from '../calls/page-result.js';
import { ToolSet } from '../calls/tool-set.js';
import { ChatStream } from '../run/chat-stream.js';
import { ContextWindow, type ContextOptions } from '../run/context-window.js';
import { chatTool, type ChatToolOptions } from '../sources/chat-tool/chat-tool.js';
import type { ToolChat } from '../sources/chat-tool/chat-tool-call.js';
import type { ChatEvents } from './chat-events.js';
import type { RegenerateOptions, RunControls, SendOptions } from './chat-options.js';
import { preloadRun, type ChatCore, type PartListener } from './chat-run.js';
import { rewindTo } from './chat-rewind.js';
import { regenerateAnswer, sendText } from './chat-send.js';
import { ChatState } from './chat-state.js';
import { objectStream, type GenerateObjectOptions, type ObjectReply, type ObjectStream } from './object-stream.js';
import { byHand, cancelPending, sendResults } from './tool-answers.js';
import { lazyImport } from '../shared/lazy-import.js';

export interface ChatInit {
  id: string;
  title: string;
  version: number;
  /** The stored count of writes that dropped messages (ChatRecord.rewound). */
  rewound?: number;
  model: ChatModel;
  tools: ToolSet;
  settings: ChatSettings;
  hooks: ToolHooks;
  store: ChatStore;
  sync: TabSync;
  messages?: ChatMessage[];
  answers?: ToolResultRecord[];
  started?: string[];
  awaiting?: string[];
  kept?: Record<string, JsonValue>;
  context?: ContextOptions;
  controls?: RunControls;
}

export class Chat extends Emitter<ChatEvents> implements ToolChat {
  readonly id: string;
  readonly #core: ChatCore;
  #unsubscribe: Array<() => void> = [];
  /** Who this chat is to the registry that stops its listening when it is collected (not the chat: that would keep it). */
  readonly #listening = {};

  constructor(init: ChatInit) {
    super();
    this.id = init.id;
    const model = init.model;
    const window = new ContextWindow({ ...init.context, modelWindow: () => model.info.contextWindow, writer: () => modelWriter(model.info) });
    this.#core = {
      id: init.id,
      state: new ChatState({ ...init, onChange: (count) => this.emit('messages', { chatId: this.id, count }) }),
      model,
      tools: init.tools,
      settings: init.settings,
      hooks: init.hooks,
      controls: init.controls ?? { stopWhen: [] },
      window,
      emit: (type, event) => this.emit(type, event),
      warned: new WeakSet<Tool>(),
    };
    this.#follow(init.tools);
    // The run's code loads on demand (chat-run.ts): start now, while the model loads, so the first send waits on nothing.
    preloadRun();
  }

  /**
   * Hear when a source's tools change (an MCP server's list): the runs that
   * start after it offer the new list. A list the chat cannot take (its
   * default tool choice names a tool that left) keeps the one before.
   * Weakly, so a chat the app drops can be collected while the app keeps the
   * source; then it stops listening by itself.
   */
  #follow(tools: ToolSet): void {
    for (const stop of this.#unsubscribe) stop();
    unsubscribeWhenCollected.unregister(this.#listening);
    const self = new WeakRef(this);
    this.#unsubscribe = tools.sources.map((source) =>
      source.subscribe(() => {
        const chat = self.deref();
        if (chat) chat.#sourceChanged();
      }),
    );
    if (this.#unsubscribe.length) unsubscribeWhenCollected.register(this, this.#unsubscribe, this.#listening);
  }

  #sourceChanged(): void {
    const core = this.#core;
    let next: ToolSet;
    try {
      next = new ToolSet(core.tools.entries);
      next.checkChoice(core.settings.toolChoice, 'toolChoice');
    } catch (error) {
      this.emit('tools-changed', { chatId: this.id, names: core.tools.names, error: error as Error });
      return;
    }
    core.tools = next;
    this.emit('tools-changed', { chatId: this.id, names: next.names });
  }

  get title(): string {
    return this.#core.state.title;
  }

  /** The conversation so far (a copy). */
  get messages(): ChatMessage[] {
    return [...this.#core.state.messages];
  }

  /** Calls of the last turn still waiting for an answer. */
  get pendingToolCalls(): ToolCall[] {
    return this.#core.state.pendingToolCalls;
  }

  get tools(): readonly Tool[] {
    const { tools } = this.#core;
    return tools.names.map((n) => tools.get(n)!);
  }

  /** Send a user message and run the tool loop until the model is done or needs the caller. */
  send(text: string, options: SendOptions = {}): Promise<Reply> {
    return sendText(this.#core, text, options);
  }

  /** `send`, streamed: the run's parts as they happen (text, reasoning, calls, results, step ends), then one `final` part with the Reply. */
  sendStream(text: string, options: SendOptions = {}): ChatStream {
    return new ChatStream((onPart, signal) => sendText(this.#core, text, { ...options, signal }, onPart), options.signal);
  }

  /**
   * Replace the chat's tools (for the runs after those already started). Names
   * must be unique; the stored chat records the new list, so `openChat` asks
   * for these tools.
   */
  setTools(tools: ToolEntry[]): Promise<void> {
    let next: ToolSet;
    try {
      next = new ToolSet(tools);
      next.checkChoice(this.#core.settings.toolChoice, 'toolChoice');
    } catch (error) {
      return Promise.reject(error);
    }
    const { state } = this.#core;
    return state.exclusive(async () => {
      await state.update({ tools: [...next.own] });
      this.#core.tools = next;
      this.#follow(next);
    });
  }

  /**
   * Answer one pending call. Once the turn's calls are all answered, the
   * model runs again. `{ error: 'message' }` reports that the call failed.
   */
  sendToolResult(callId: string, result: unknown, options: SendOptions = {}): Promise<Reply> {
    return this.sendToolResults([{ callId, result }], options);
  }

  /** Answer several pending calls at once. Unknown or already answered ids reject, changing nothing. */
  sendToolResults(results: readonly ToolResultInput[], options: SendOptions = {}): Promise<Reply> {
    return sendResults(this.#core, results, options);
  }

  /** `sendToolResults`, streamed like `sendStream`. */
  sendToolResultsStream(results: readonly ToolResultInput[], options: SendOptions = {}): ChatStream {
    return new ChatStream((onPart, signal) => sendResults(this.#core, results, { ...options, signal }, onPart), options.signal);
  }

  /**
   * Run a pending call of a managed tool by hand (a mixed turn, or
   * `returnToolRequests`), and answer it with the result, as sendToolResult
   * would. A tool that needs approval is asked about as in a run. An
   * interrupted call marked `resumable` (an MCP task) is resumed: it waits
   * for the same work, it does not start it again.
   */
  runTool(call: ToolCall, options: SendOptions = {}): Promise<Reply> {
    return byHand(this.#core, call?.id, options, async (pending) => (await loadRunPending()).runPending(this.#core, pending, options, false));
  }

  /**
   * Approve a call that waits for approval (`reply.approvals`,
   * `pendingToolCalls[i].awaitingApproval`): it runs now, in this tab, and
   * once the turn's calls are all answered the run goes on, as after
   * sendToolResult. Works after a reload and from another tab. (`onPart`:
   * @internal the run that goes on, told as stream parts, for tabagent/ai-sdk.)
   */
  approve(callId: string, options: SendOptions = {}, onPart?: PartListener): Promise<Reply> {
    return byHand(this.#core, callId, options, async (pending) => (await loadRunPending()).runPending(this.#core, pending, options, true, onPart), true);
  }

  /** Deny a call that waits for approval: it never runs, and the model reads `{"denied": true, "reason": …}`. (`onPart`: @internal as for approve.) */
  deny(callId: string, reason = DEFAULT_DENIAL, options: SendOptions = {}, onPart?: PartListener): Promise<Reply> {
    if (typeof reason !== 'string') return Promise.reject(new InvalidOptionsError('reason', 'must be a string'));
    return byHand(this.#core, callId, options, async (pending) => (await loadRunPending()).denyPending(this.#core, pending, reason, options, onPart), true);
  }

  /** Answer every pending call with an error result without running the model, so the chat can move on. */
  cancelToolCalls(reason = 'The call was cancelled before it ran.'): Promise<void> {
    return this.#core.state.exclusive(() => cancelPending(this.#core, reason));
  }

  /**
   * This chat as a managed tool of another chat: each call sends a message
   * (the `task` the model writes, or `message(input)`) and the tool returns
   * the reply's text (or, with `output`, a JSON value that fits it). The run
   * is this chat's own: its system prompt, tools, hooks and hop cap; it is
   * stored here, and the call's result names this chat (`chatId`). Its parts
   * come to the calling chat as `tool-progress` events (`{ chatId, part }`).
   */
  asTool<Input = { task: string }, Output = string>(options: ChatToolOptions<Input, Output>): ManagedTool<Input, Output> {
    return chatTool(this, options);
  }

  /**
   * @internal A call of this chat's tool `toolName`: `send` (or, with
   * `schema`, generateObject's run) for the runs in `chain`, which wait on it.
   * Calls the run leaves pending are cancelled before the chat is let go
   * (nobody in a tool call can answer them, and the next task must find the
   * chat free), and fail the call with ChatToolError.
   */
  sendFor(chain: readonly string[], toolName: string, text: string, options: SendOptions, onPart?: PartListener, schema?: JsonSchema): Promise<Reply> {
    return sendText(this.#core, text, options, onPart, { schema, asTool: { chain, toolName } });
  }

  /**
   * Replace an answer — "try again": it is dropped with everything after it
   * (stored and here, in one write) and the model answers again from the
   * conversation before it, whose prompt is the one that answer read.
   * `from`: the answer's index in `messages` (a model turn: in a run with
   * tools, the step to write again; the steps before it stay); by default
   * the last message, which must be an answer. Refused while calls are
   * pending (an interrupted answer counts as an answer).
   * (`onPart`: @internal the new answer, told as stream parts, for tabagent/ai-sdk.)
   */
  regenerate(options: RegenerateOptions = {}, onPart?: PartListener): Promise<Reply> {
    const { from, ...send } = options ?? {};
    return regenerateAnswer(this.#core, send, from, onPart);
  }

  /**
   * Go back to before the user message at `index` (its place in
   * `messages`): it and everything after it are dropped, stored and here, in
   * one write that other tabs see; the chat is as it was before that message
   * was sent. (To go back to before an answer and have it written again:
   * `regenerate({ from })`.) Refused while calls are pending.
   */
  rewind(index: number): Promise<void> {
    return rewindTo(this.#core, index);
  }

  /**
   * Edit a message you sent: `text` takes the place of the user message at
   * `index`, what came after it is dropped (one write with the new message),
   * and the model answers it, as `send` would. (`onPart`: @internal the run,
   * told as stream parts, for tabagent/ai-sdk.)
   */
  edit(index: number, text: string, options: SendOptions = {}, onPart?: PartListener): Promise<Reply> {
    return sendText(this.#core, text, options, onPart, { replace: index });
  }

  /** @internal Opening a chat: an answer a closed tab was writing shows as interrupted. */
  recoverDraft(): Promise<void> {
    return this.#core.state.recoverDraft();
  }

  /** Rename the chat (stored at once). */
  rename(title: string): Promise<void> {
    if (typeof title !== 'string') return Promise.reject(new InvalidOptionsError('title', 'must be a string'));
    const { state } = this.#core;
    // Under this copy's own hold (a tool naming its chat), queueing would wait
    // on the run that waits on this; the store has the run's next commit check.
    return state.holding ? state.update({ title }) : state.exclusive(() => state.update({ title }));
  }

  /** Stop accepting work. Runs already queued still reject with ChatClosedError. */
  close(): void {
    this.closeWith(new ChatClosedError(this.id));
  }

  /** @internal Work of this copy holds the chat's lock now (deleting the chat cannot wait for it). */
  get holdsLock(): boolean {
    return this.#core.state.holding;
  }

  /** @internal The chat is deleted under this copy's running work: that work writes nothing more. */
  markDeleted(): void {
    this.#core.state.markDeleted();
  }

  /** @internal The agent closing (or deleting the chat) closes it. */
  closeWith(error: ChatClosedError | AgentClosedError): void {
    for (const stop of this.#unsubscribe) stop();
    this.#unsubscribe = [];
    unsubscribeWhenCollected.unregister(this.#listening);
    this.#core.state.close(error);
  }

  /**
   * Ask for a JSON value that fits `schema` (zod, or JSON Schema): the
   * grammar makes the reply parse, the schema checks it, and it comes back
   * typed. The prompt and the answer join the chat like any other turn. A
   * reply that does not fit rejects with InvalidObjectError (and stays in the chat).
   */
  async generateObject<T>(options: GenerateObjectOptions<T>): Promise<ObjectReply<T>> {
    const output = objectOutput(options?.schema);
    const reply = await sendText(this.#core, options.prompt, { signal: options.signal, generation: options.generation }, undefined, { schema: output.jsonSchema });
    return { ...reply, object: await output.read(reply.text, reply.finishReason) };
  }

  /** `generateObject`, streamed: the object as it grows (not yet validated), then `result` with the checked one. */
  generateObjectStream<T>(options: GenerateObjectOptions<T>): ObjectStream<T> {
    const output = objectOutput(options?.schema);
    const stream = new ChatStream((onPart, signal) => sendText(this.#core, options.prompt, { signal, generation: options.generation }, onPart, { schema: output.jsonSchema }), options.signal);
    return objectStream(stream, output);
  }
}

/** Running or denying a call by hand, loaded at its first use (run-pending.ts); always inside byHand's turn of the chat's queue. */
const loadRunPending = lazyImport(() => import('./run-pending.js'));

/** A collected chat's listeners leave the sources it followed. */
const unsubscribeWhenCollected = new FinalizationRegistry<Array<() => void>>((stops) => {
  for (const stop of stops) stop();
});
