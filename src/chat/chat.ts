// A conversation as the app uses it: send, answer tool calls, stream, rename.
// Its stored state, and the one-run-at-a-time rules, live in ChatState.
import { type AgentClosedError, ChatClosedError, ChatToolError, InvalidOptionsError, PendingToolCallsError, UnknownToolCallError, UnknownToolError } from '../errors/index.js';
import type { ChatModel, GenerationOptions } from '../shared/model.js';
import type { ToolChoice } from '../shared/tool-protocol.js';
import type { ChatStore } from '../store/records.js';
import type { TabSync } from '../store/tab-sync.js';
import type { ManagedTool, Tool, ToolEntry } from '../tools/types.js';
import type { ChatEvents } from './chat-events.js';
import type { ToolEventName } from '../calls/tool-events.js';
import type { RunEvents } from '../run/run-events.js';
import { runControls, type RunControls } from './chat-options.js';
import { ChatState, type PendingChange } from './chat-state.js';
import { inCallOrder, unrunRecord } from '../calls/call-order.js';
import { ChatStream, type StreamPart } from '../run/chat-stream.js';
import { ContextWindow, type ContextOptions } from '../run/context-window.js';
import { Emitter } from '../shared/emitter.js';
import type { ToolHooks } from '../calls/hooks.js';
import { runLoop } from '../run/loop.js';
import { abortReason, emptyStats } from '../run/run-record.js';
import { activeSubset, type PrepareStep } from '../run/prepare-step.js';
import type { StopCondition } from '../run/stop-conditions.js';
import { DEFAULT_DENIAL, deny } from '../calls/run-call.js';
import { runBatch } from '../calls/run-batch.js';
import { ToolSet } from '../calls/tool-set.js';
import { pageResult, type ToolResultInput } from '../calls/page-result.js';
import { objectOutput, type ObjectSchema } from '../tools/object-output.js';
import { objectStream, type ObjectStream } from './object-stream.js';
import type { JsonSchema, JsonValue } from '../shared/json.js';
import { chatTool, type ChatToolOptions } from '../sources/chat-tool/chat-tool.js';
import type { ChatMessage, ChatSettings, Reply, ToolCall, ToolResultRecord } from '../shared/chat.js';

export interface SendOptions {
  /** Abort the run: generation stops, running handlers see `ctx.signal` abort, the call rejects with the abort reason. */
  signal?: AbortSignal;
  /** Return every tool call to the caller instead of running managed tools. */
  returnToolRequests?: boolean;
  /** Tool choice for this run's first model call (the chat's default otherwise). */
  toolChoice?: ToolChoice;
  /** Offer only these of the chat's tools (by name) in this run. */
  activeTools?: string[];
  /** Generation settings for this run, over the chat's. */
  generation?: GenerationOptions;
  /** Stop conditions for this run, instead of the chat's. */
  stopWhen?: StopCondition | StopCondition[];
  /** Steer this run's model calls, instead of the chat's prepareStep. */
  prepareStep?: PrepareStep;
}

type PartListener = (part: StreamPart) => void;

export type { ToolResultInput } from '../calls/page-result.js';

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
  awaiting?: string[];
  kept?: Record<string, JsonValue>;
  context?: ContextOptions;
  controls?: RunControls;
}

export class Chat extends Emitter<ChatEvents> {
  readonly id: string;
  readonly #state: ChatState;
  readonly #model: ChatModel;
  #tools: ToolSet;
  readonly #controls: RunControls;
  readonly #settings: ChatSettings;
  readonly #hooks: ToolHooks;
  readonly #window: ContextWindow;
  #unsubscribe: Array<() => void> = [];
  /** Tools whose warnings this chat has emitted. */
  readonly #warned = new WeakSet<Tool>();
  /** Who this chat is to the registry that stops its listening when it is collected (not the chat: that would keep it). */
  readonly #listening = {};

  constructor(init: ChatInit) {
    super();
    this.id = init.id;
    this.#model = init.model;
    this.#tools = init.tools;
    this.#settings = init.settings;
    this.#hooks = init.hooks;
    this.#controls = init.controls ?? { stopWhen: [] };
    const model = init.model;
    this.#window = new ContextWindow({ ...init.context, modelWindow: () => model.info.contextWindow });
    this.#state = new ChatState({ ...init, onChange: (count) => this.emit('messages', { chatId: this.id, count }) });
    this.#follow(init.tools);
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
    let next: ToolSet;
    try {
      next = new ToolSet(this.#tools.entries);
      next.checkChoice(this.#settings.toolChoice, 'toolChoice');
    } catch (error) {
      this.emit('tools-changed', { chatId: this.id, names: this.#tools.names, error: error as Error });
      return;
    }
    this.#tools = next;
    this.emit('tools-changed', { chatId: this.id, names: next.names });
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

  /** `send`, streamed: the run's parts as they happen (text, reasoning, calls, results, step ends), then one `final` part with the Reply. */
  sendStream(text: string, options: SendOptions = {}): ChatStream {
    return new ChatStream((onPart, signal) => this.#send(text, { ...options, signal }, onPart), options.signal);
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
      next.checkChoice(this.#settings.toolChoice, 'toolChoice');
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#state.exclusive(async () => {
      await this.#state.update({ tools: [...next.own] });
      this.#tools = next;
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
    return this.#sendResults(results, options);
  }

  /** `sendToolResults`, streamed like `sendStream`. */
  sendToolResultsStream(results: readonly ToolResultInput[], options: SendOptions = {}): ChatStream {
    return new ChatStream((onPart, signal) => this.#sendResults(results, { ...options, signal }, onPart), options.signal);
  }

  /**
   * Run a pending call of a managed tool by hand (a mixed turn, or
   * `returnToolRequests`), and answer it with the result, as sendToolResult
   * would. A tool that needs approval is asked about as in a run. An
   * interrupted call marked `resumable` (an MCP task) is resumed: it waits
   * for the same work, it does not start it again.
   */
  runTool(call: ToolCall, options: SendOptions = {}): Promise<Reply> {
    return this.#byHand(call?.id, options, (pending) => this.#runPending(pending, options, false));
  }

  /**
   * Approve a call that waits for approval (`reply.approvals`,
   * `pendingToolCalls[i].awaitingApproval`): it runs now, in this tab, and
   * once the turn's calls are all answered the run goes on, as after
   * sendToolResult. Works after a reload and from another tab. (`onPart`:
   * @internal the run that goes on, told as stream parts, for tabagent/ai-sdk.)
   */
  approve(callId: string, options: SendOptions = {}, onPart?: PartListener): Promise<Reply> {
    return this.#byHand(callId, options, (pending) => this.#runPending(pending, options, true, onPart), true);
  }

  /** Deny a call that waits for approval: it never runs, and the model reads `{"denied": true, "reason": …}`. (`onPart`: @internal as for approve.) */
  deny(callId: string, reason = DEFAULT_DENIAL, options: SendOptions = {}, onPart?: PartListener): Promise<Reply> {
    if (typeof reason !== 'string') return Promise.reject(new InvalidOptionsError('reason', 'must be a string'));
    return this.#byHand(
      callId,
      options,
      async (pending) => {
        const { outcome } = deny({ callId: pending.id, toolName: pending.name }, reason, 'denied', { emit: (type, event) => this.emit<ToolEventName>(type, event) });
        this.emit('tool-end', outcome.ended!);
        return this.#answer([outcome.record!], options, onPart);
      },
      true,
    );
  }

  /**
   * Work on one pending call by the page's hand. It may run a tool before
   * anything is written: catch up first (another tab may have answered it),
   * so it never runs twice.
   */
  #byHand(callId: unknown, options: SendOptions, work: (pending: ToolCall) => Promise<Reply>, awaitingOnly = false): Promise<Reply> {
    return this.#state.exclusive(
      async () => {
        const [pending] = this.#state.claim([callId]);
        if (awaitingOnly && !pending!.awaitingApproval) {
          throw new UnknownToolCallError(String(callId), this.#state.pendingToolCalls.filter((c) => c.awaitingApproval).map((c) => c.id), 'awaiting approval');
        }
        return work(pending!);
      },
      { signal: options.signal, catchUp: true },
    );
  }

  /** One pending call through the same pipeline a run's batch takes, journaled the same way, then answered as sendToolResult would. */
  async #runPending(pending: ToolCall, options: SendOptions, approved: boolean, onPart?: PartListener): Promise<Reply> {
    const managed = this.#tools.managed(pending.name);
    if (!managed) throw new UnknownToolError(pending.name, this.#managedNames(), 'is not a managed tool of this chat');
    const signal = options.signal ?? new AbortController().signal;
    const mark = (change: PendingChange) => this.#state.commit([], this.#state.pendingAfter(change));
    // A call cut off after it kept its state is resumed with it (it ran, approved, once already).
    const resumed = pending.resumable ? this.#state.keptFor(pending.id) : undefined;
    const batch = await runBatch([pending], () => managed, 1, {
      signal,
      maxResultChars: this.#settings.maxResultChars,
      hooks: this.#hooks,
      emit: (type, event) => this.emit<ToolEventName>(type, event),
      approved: approved || resumed !== undefined,
      chain: [this.id],
      ...(resumed !== undefined ? { resumed: (callId: string) => (callId === pending.id ? resumed : undefined) } : {}),
      journal: {
        // Marked started on disk first: a closed tab then reports it interrupted, never reruns it.
        started: (callId) => mark({ started: [callId] }),
        kept: (callId, state) => mark({ started: [callId], kept: { [callId]: state } }),
        // Nobody to ask: it waits for chat.approve / chat.deny.
        awaiting: (callId) => mark({ awaiting: [callId] }),
        // A result is answered below; a failure leaves it no longer started, still pending.
        finished: (callId, record) => (record ? Promise.resolve() : mark({ done: [callId] })),
      },
    });
    if (batch.aborted) throw abortReason(signal);
    if (batch.failure) throw batch.failure;
    if (batch.awaiting.length) return this.#replySoFar();
    return this.#answer([batch.records[0]!], options, onPart);
  }

  /** The reply while the turn still has calls pending. */
  #replySoFar(): Reply {
    const turn = this.#state.pendingTurn!;
    const pending = this.#state.pendingToolCalls;
    const approvals = pending.filter((c) => c.awaitingApproval);
    return {
      text: turn.text,
      reasoning: turn.reasoning,
      toolCalls: pending.filter((c) => !c.awaitingApproval),
      ...(approvals.length ? { approvals } : {}),
      finishReason: turn.finishReason,
      stats: emptyStats(),
      steps: [],
    };
  }

  /** Answer every pending call with an error result without running the model, so the chat can move on. */
  cancelToolCalls(reason = 'The call was cancelled before it ran.'): Promise<void> {
    return this.#state.exclusive(() => this.#cancelPending(reason));
  }

  async #cancelPending(reason: string): Promise<void> {
    const turn = this.#state.pendingTurn;
    const pending = this.#state.pendingToolCalls;
    if (!turn || pending.length === 0) return;
    const results = inCallOrder(turn.toolCalls, this.#state.answers, (c) => unrunRecord(c, reason, 'cancelled'));
    await this.#state.commit([{ role: 'tool', results, createdAt: Date.now() }]);
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
    return this.#send(text, options, onPart, schema, { chain, toolName });
  }

  /**
   * Replace the last answer: it is dropped (stored and here) and the model
   * answers again from the same conversation — "try again". The last message
   * must be an answer with no calls pending (an interrupted one counts).
   * (`onPart`: @internal the new answer, told as stream parts, for tabagent/ai-sdk.)
   */
  regenerate(options: SendOptions = {}, onPart?: PartListener): Promise<Reply> {
    return this.#state.exclusive(
      async () => {
        options.signal?.throwIfAborted();
        const last = this.#state.messages.at(-1);
        if (last?.role !== 'assistant') throw new InvalidOptionsError('regenerate', 'the chat has no answer to replace');
        const pending = this.#state.pendingToolCalls;
        if (pending.length) throw new PendingToolCallsError(pending);
        const plan = this.#plan(options);
        await this.#state.truncate(this.#state.messages.length - 1);
        return this.#run(options, plan, onPart);
      },
      { signal: options.signal, catchUp: true },
    );
  }

  /** @internal Opening a chat: an answer a closed tab was writing shows as interrupted. */
  recoverDraft(): Promise<void> {
    return this.#state.recoverDraft();
  }

  /** Rename the chat (stored at once). */
  rename(title: string): Promise<void> {
    if (typeof title !== 'string') return Promise.reject(new InvalidOptionsError('title', 'must be a string'));
    return this.#state.exclusive(() => this.#state.update({ title }));
  }

  /** Stop accepting work. Runs already queued still reject with ChatClosedError. */
  close(): void {
    this.closeWith(new ChatClosedError(this.id));
  }

  /** @internal The agent closing (or deleting the chat) closes it. */
  closeWith(error: ChatClosedError | AgentClosedError): void {
    for (const stop of this.#unsubscribe) stop();
    this.#unsubscribe = [];
    unsubscribeWhenCollected.unregister(this.#listening);
    this.#state.close(error);
  }

  /**
   * Ask for a JSON value that fits `schema` (zod, or JSON Schema): the
   * grammar makes the reply parse, the schema checks it, and it comes back
   * typed. The prompt and the answer join the chat like any other turn. A
   * reply that does not fit rejects with InvalidObjectError (and stays in the chat).
   */
  async generateObject<T>(options: GenerateObjectOptions<T>): Promise<ObjectReply<T>> {
    const output = objectOutput(options?.schema);
    const reply = await this.#send(options.prompt, { signal: options.signal, generation: options.generation }, undefined, output.jsonSchema);
    return { ...reply, object: output.read(reply.text, reply.finishReason) };
  }

  /** `generateObject`, streamed: the object as it grows (not yet validated), then `result` with the checked one. */
  generateObjectStream<T>(options: GenerateObjectOptions<T>): ObjectStream<T> {
    const output = objectOutput(options?.schema);
    const stream = new ChatStream((onPart, signal) => this.#send(options.prompt, { signal, generation: options.generation }, onPart, output.jsonSchema), options.signal);
    return objectStream(stream, output);
  }

  #send(text: string, options: SendOptions, onPart?: PartListener, schema?: JsonSchema, asTool?: { chain: readonly string[]; toolName: string }): Promise<Reply> {
    if (typeof text !== 'string' || text.trim() === '') return Promise.reject(new InvalidOptionsError('text', 'must be a non-empty string'));
    return this.#state.exclusive(async () => {
      options.signal?.throwIfAborted();
      const pending = this.#state.pendingToolCalls;
      if (pending.length) throw new PendingToolCallsError(pending);
      // Structured output: the tools stay declared (the prompt's prefix stays the chat's), no call can be made.
      const plan = schema ? { ...this.#plan({ ...options, toolChoice: 'none' }), controls: { stopWhen: [] }, output: { schema } } : this.#plan(options);
      // A message that can never fit is refused before it is written: the chat stays as it was.
      const refusal = this.#window.refusal(this.#state.messages, text, this.#settings.system, plan.tools.declarations, plan.generation?.maxTokens) ?? this.#toolsRefusal(plan.tools.declarations.length);
      if (refusal) throw refusal;
      await this.#state.commit([{ role: 'user', content: text, createdAt: Date.now() }], { title: this.#state.title ? undefined : titleFrom(text) });
      if (!asTool) return this.#run(options, plan, onPart);
      try {
        const reply = await this.#run(options, plan, onPart, asTool.chain);
        const calls = [...reply.toolCalls, ...(reply.approvals ?? [])];
        if (calls.length) throw new ChatToolError({ toolName: asTool.toolName, chatId: this.id, failure: 'pending', calls });
        return reply;
      } finally {
        await this.#cancelPending('The chat ran as a tool, and no one there could answer this call.').catch(() => undefined);
      }
    }, { signal: options.signal });
  }

  #sendResults(results: readonly ToolResultInput[], options: SendOptions, onPart?: PartListener): Promise<Reply> {
    if (!Array.isArray(results) || results.length === 0) {
      return Promise.reject(new InvalidOptionsError('results', 'must be a non-empty array of { callId, result }'));
    }
    return this.#state.exclusive(async () => {
      options.signal?.throwIfAborted();
      const calls = this.#state.claim(results.map((r) => r?.callId));
      const records = calls.map((call, i) => pageResult(call, results[i]!, this.#settings.maxResultChars));
      return this.#answer(records, options, onPart);
    }, { signal: options.signal });
  }

  /**
   * Tools for a model that reads no calls (a GGUF whose template writes no
   * call markup, loaded without `family`): refused before the message is
   * written, as the worker would refuse the request. Unknown while a model loads.
   */
  #toolsRefusal(tools: number): InvalidOptionsError | undefined {
    if (tools === 0) return undefined;
    let info;
    try {
      info = this.#model.info;
    } catch {
      return undefined;
    }
    if (info.family !== undefined) return undefined;
    return new InvalidOptionsError('family', `${info.modelId}'s chat template shows no tool-call format tabagent reads; pass family (for example 'hermes', taught in the system prompt) to give it tools`);
  }

  /** A run's tools, tool choice and generation, checked before anything is written. */
  #plan(options: SendOptions): RunPlan {
    const tools = options.activeTools === undefined ? this.#tools : activeSubset(this.#tools, options.activeTools, 'activeTools');
    const toolChoice = options.toolChoice ?? this.#settings.toolChoice;
    // The chat's default choice may name a tool this run leaves out: then the model chooses.
    const choice = options.toolChoice === undefined && typeof toolChoice === 'object' && !tools.get(toolChoice.name) ? 'auto' : toolChoice;
    tools.checkChoice(choice, 'toolChoice');
    if (options.generation !== undefined && (typeof options.generation !== 'object' || options.generation === null)) throw new InvalidOptionsError('generation', 'must be an object');
    const generation = options.generation ? { ...this.#settings.generation, ...options.generation } : this.#settings.generation;
    return { tools, toolChoice: choice, generation, controls: runControls(options, this.#controls) };
  }

  /** Record answers; once every call of the turn has one, they go to the model as one message and the loop runs on. */
  async #answer(records: ToolResultRecord[], options: SendOptions, onPart?: PartListener): Promise<Reply> {
    const turn = this.#state.pendingTurn!;
    const answers = [...this.#state.answers, ...records];
    if (answers.length < turn.toolCalls.length) {
      // Other calls' marks stay: an interrupted call is still interrupted, one awaiting approval still waits.
      await this.#state.commit([], this.#state.pendingAfter({ answers: records }));
      return this.#replySoFar();
    }
    const plan = this.#plan(options);
    await this.#state.commit([{ role: 'tool', results: inCallOrder(turn.toolCalls, answers), createdAt: Date.now() }]);
    return this.#run(options, plan, onPart);
  }

  /** `chain`: the runs waiting on this one (this chat run as a tool). */
  #run(options: SendOptions, plan: RunPlan, onPart?: PartListener, chain: readonly string[] = []): Promise<Reply> {
    this.#warnOf(plan.tools);
    return runLoop(
      {
        model: this.#model,
        settings: this.#settings,
        hooks: this.#hooks,
        messages: this.#state.messages,
        commit: (messages, state) => this.#state.commit(messages, state),
        saveDraft: (text) => this.#state.saveDraft(text),
        window: this.#window,
        emit: (type, event) => this.emit<keyof RunEvents>(type, event),
        newCallId,
      },
      {
        signal: options.signal ?? new AbortController().signal,
        onPart,
        returnToolRequests: options.returnToolRequests ?? false,
        tools: plan.tools,
        chatTools: this.#tools,
        toolChoice: plan.toolChoice,
        generation: plan.generation,
        stopWhen: plan.controls.stopWhen,
        prepareStep: plan.controls.prepareStep,
        firstStep: stepsSinceUser(this.#state.messages),
        output: plan.output,
        chain: [...chain, this.id],
      },
    );
  }

  /** Each offered tool's schema warnings, the first time this chat offers it. */
  #warnOf(tools: ToolSet): void {
    for (const name of tools.names) {
      const tool = tools.get(name)!;
      if (tool.kind !== 'managed' || !tool.warnings?.length || this.#warned.has(tool)) continue;
      this.#warned.add(tool);
      for (const message of tool.warnings) this.emit('tool-warning', { chatId: this.id, toolName: name, message });
    }
  }

  #managedNames(): string[] {
    return this.#tools.names.filter((n) => this.#tools.managed(n));
  }
}

interface RunPlan {
  tools: ToolSet;
  toolChoice: ToolChoice;
  generation?: GenerationOptions;
  controls: RunControls;
  output?: { schema: JsonSchema };
}

export interface GenerateObjectOptions<T> {
  /** A zod schema (the result is typed by it), or a JSON Schema object. */
  schema: ObjectSchema<T>;
  prompt: string;
  signal?: AbortSignal;
  generation?: GenerationOptions;
}

/** A reply whose text is a JSON value that fits the schema, read back as `object`. */
export type ObjectReply<T> = Reply & { object: T };

/** Model turns since the latest user message: a run's steps go on across the answers to its calls. */
function stepsSinceUser(messages: readonly ChatMessage[]): number {
  let count = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role !== 'user'; i--) if (messages[i]!.role === 'assistant') count++;
  return count;
}

/** A chat's default title: the start of its first message, on one line. */
function titleFrom(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** A collected chat's listeners leave the sources it followed. */
const unsubscribeWhenCollected = new FinalizationRegistry<Array<() => void>>((stops) => {
  for (const stop of stops) stop();
});

function newCallId(): string {
  return `call_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
}
