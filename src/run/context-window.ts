// What the model sees of a chat. The stored chat keeps everything; before
// each model call this decides which part of it fits the model's context
// window, and says when that changed.
//
// The default strategy, 'trim':
// - The system prompt and the tool declarations always go, and so does the
//   current run: everything from the latest user message on (a call still
//   pending included).
// - When the request and room for the reply would not fit, old tool results
//   that are oversized are shortened first; then the oldest whole exchanges
//   (a user message and everything up to the next one) go. An exchange goes
//   whole, so a call never loses its result, nor a result its call.
// - It trims in a block, down to TARGET of the window, not one message per
//   hop: each trim makes WebLLM prefill the kept history again, and the hops
//   that follow send the same view, so they reuse its KV cache.
// - If even the current run does not fit: ContextOverflowError. Nothing is
//   written, so the chat stays usable.
// Token counts are estimates (protocol/token-estimate.ts), but for the
// model's own turns, whose completion tokens WebLLM reports exactly.
import { ContextOverflowError, InvalidOptionsError } from '../errors/index.js';
import type { ModelMessage } from '../shared/model.js';
import { countTokens } from '../protocol/token-estimate.js';
import type { ToolDeclaration } from '../shared/tool-protocol.js';
import type { AssistantMessage, ChatMessage, ToolResultRecord } from '../shared/chat.js';

/**
 * The share of the window a trim leaves the prompt and the reply's room, and
 * a harder one (after the engine refused). Low enough that a chat with tool
 * results of a few KB trims about once in ten hops (see npm run bench).
 */
const TARGET = 0.45;
const HARDER_TARGET = 0.3;
/** Role markers and separators a template adds around a message. */
const MESSAGE_OVERHEAD = 8;
/** The family's own wording around tool declarations (Qwen3.5's is the longest). */
const TOOLS_OVERHEAD = 300;
/** An old result over this share of the window is shortened before exchanges go. */
const OVERSIZED = 0.1;
/** What is left of a shortened result, in characters. */
const SHORTENED_CHARS = 400;

/** What a custom strategy is told. */
export interface ContextInput {
  messages: readonly ChatMessage[];
  /** Messages from this index on must stay: the current run. */
  keepFrom: number;
  contextWindow: number;
  /** Tokens kept free for the reply. */
  reservedTokens: number;
  /** Tokens of the system prompt and the tool declarations (estimated). */
  fixedTokens: number;
  /** Tokens of one message (estimated, or exact for the model's own turns). */
  tokensOf(message: ChatMessage): number;
}

/** What the model is to see: the messages from `from` on, after an optional summary of what came before. */
export interface ContextView {
  from: number;
  summary?: string;
}

/** `'trim'` (the default), `'error'` (never trim: ContextOverflowError), or your own. */
export type ContextStrategy = 'trim' | 'error' | ((input: ContextInput) => ContextView | Promise<ContextView>);

export interface ContextOptions {
  strategy?: ContextStrategy;
  /** The model's context window (default: the model's own, from WebLLM's model record). */
  window?: number;
  /** Tokens kept free for the reply (default: `generation.maxTokens`, else an eighth of the window, at most 512). */
  reserve?: number;
}

/** What a trim changed, for the `context-trimmed` event. */
export interface ContextTrim {
  /** Messages of the stored chat the model no longer sees (from the start). */
  dropped: number;
  /** Old tool results the model sees shortened. */
  shortened: number;
  /** The prompt's estimated tokens now, and the window. */
  promptTokens: number;
  contextWindow: number;
}

export function checkContextOptions(options: ContextOptions | undefined): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) throw new InvalidOptionsError('context', 'must be an object');
  const { strategy, window, reserve } = options;
  if (strategy !== undefined && strategy !== 'trim' && strategy !== 'error' && typeof strategy !== 'function') {
    throw new InvalidOptionsError('context.strategy', "must be 'trim', 'error' or a function");
  }
  for (const [name, value] of [['window', window], ['reserve', reserve]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value <= 0)) throw new InvalidOptionsError(`context.${name}`, 'must be a positive whole number of tokens');
  }
}

/** countTokens for a text asked for again and again: the last text's count is kept. */
function lastCounted(): (text: string) => number {
  let last = '';
  let tokens = 0;
  return (text) => {
    if (text !== last) {
      last = text;
      tokens = countTokens(text);
    }
    return tokens;
  };
}

export class ContextWindow {
  /** The first message the model sees; kept across hops until the next trim. */
  #from = 0;
  #summary: string | undefined;
  /** Tool messages the model sees with their results shortened. */
  readonly #shortened = new WeakSet<ChatMessage>();
  /** Each message's tokens, counted once (the per-hop path sends the same messages again). */
  #counted = new WeakMap<ChatMessage, number>();
  /**
   * Each message as the model gets it, made once: the same object hop after
   * hop, so the generation port sends only what a request adds to the last
   * (rpc/request-wire.ts). Made again once a trim shortens it.
   */
  #rendered = new WeakMap<ChatMessage, ModelMessage>();
  /** The model the messages were rendered and counted for (`modelWriter`): only its own turns go as markup. */
  #writer = '';
  /** The summary a context strategy gave, as the message the model gets (the same object while the summary stays). */
  #summaryMessage: { role: 'user'; content: string } | undefined;
  /** The declared tools' tokens, counted once per list (every hop declares the same, and an app's may run to KBs). */
  readonly #toolTokens = new WeakMap<readonly ToolDeclaration[], number>();
  /** The system prompt's and the summary's tokens, kept while the text stays: each hop asks again. */
  readonly #systemTokens = lastCounted();
  readonly #summaryCount = lastCounted();

  /** `modelWindow`, `writer`: the chat's model now, its window and who it is as a turn's writer (`modelWriter`). */
  constructor(private readonly options: ContextOptions & { modelWindow: () => number; writer: () => string }) {}

  /**
   * The model's view of `messages` for the next request. `refused`: the
   * engine refused the last one (an estimate was off, or the window assumed
   * is larger than the engine's), so trim past the usual target, in the
   * engine's own window where it said it.
   */
  async view(messages: readonly ChatMessage[], system: string | undefined, tools: readonly ToolDeclaration[], maxTokens: number | undefined, refused?: { window?: number }): Promise<{ messages: ModelMessage[]; reservedTokens: number; trim?: ContextTrim }> {
    const harder = refused !== undefined;
    const assumed = this.options.window ?? this.options.modelWindow();
    const window = refused?.window !== undefined && refused.window > 0 ? Math.min(refused.window, assumed) : assumed;
    this.#follow();
    const { reserved, fixed } = this.#budget(window, system, tools, maxTokens);
    const keepFrom = lastUserIndex(messages);
    const promptFrom = (from: number) => fixed + this.#summaryTokens() + sum(messages.slice(from).map((m) => this.#tokens(m)));
    // A view starts at a user message (the chat may have changed under it, in another tab).
    this.#from = Math.min(this.#from, keepFrom);
    while (this.#from > 0 && messages[this.#from]?.role !== 'user') this.#from--;

    const fits = promptFrom(this.#from) + reserved <= window;
    if (fits && !harder) return { messages: this.#render(messages), reservedTokens: reserved };
    const strategy = this.options.strategy ?? 'trim';
    if (strategy === 'error') throw new ContextOverflowError({ promptTokens: promptFrom(this.#from), reservedTokens: reserved, contextWindow: window });

    if (typeof strategy === 'function') {
      const view = await strategy({ messages, keepFrom, contextWindow: window, reservedTokens: reserved, fixedTokens: fixed, tokensOf: (m) => this.#tokens(m) });
      if (!Number.isInteger(view?.from) || view.from < 0 || view.from > keepFrom) {
        throw new InvalidOptionsError('context.strategy', `must return { from } between 0 and ${keepFrom} (the current run must stay)`);
      }
      this.#from = view.from;
      this.#summary = view.summary;
    } else {
      this.#trim(messages, keepFrom, window, window * (harder ? HARDER_TARGET : TARGET) - reserved, promptFrom);
    }
    const promptTokens = promptFrom(this.#from);
    if (promptTokens + reserved > window) throw new ContextOverflowError({ promptTokens, reservedTokens: reserved, contextWindow: window });
    const shortened = messages.slice(this.#from).filter((m) => this.#shortened.has(m)).length;
    return { messages: this.#render(messages), reservedTokens: reserved, trim: { dropped: this.#from, shortened, promptTokens, contextWindow: window } };
  }

  /**
   * Before a user message is written: the ContextOverflowError a send of
   * `text` would end in, so the send can refuse it and write nothing. The
   * message, the system prompt, the tools and the reply's room must fit
   * whatever is trimmed; with strategy 'error', the whole view must. Undefined
   * while the model's window is not known yet (the run checks again).
   */
  refusal(messages: readonly ChatMessage[], text: string, system: string | undefined, tools: readonly ToolDeclaration[], maxTokens: number | undefined): ContextOverflowError | undefined {
    let window: number;
    try {
      window = this.options.window ?? this.options.modelWindow();
      this.#follow();
    } catch {
      return undefined;
    }
    const { reserved, fixed } = this.#budget(window, system, tools, maxTokens);
    const own = countTokens(text) + MESSAGE_OVERHEAD;
    const kept = this.options.strategy === 'error' ? this.#summaryTokens() + sum(messages.slice(this.#from).map((m) => this.#tokens(m))) : 0;
    const promptTokens = fixed + kept + own;
    return promptTokens + reserved > window ? new ContextOverflowError({ promptTokens, reservedTokens: reserved, contextWindow: window }) : undefined;
  }

  /** The model the messages go to now: another than the last reads other turns as its own, so what was rendered and counted for the last is made again. */
  #follow(): void {
    const writer = this.options.writer();
    if (writer === this.#writer) return;
    [this.#rendered, this.#counted, this.#writer] = [new WeakMap(), new WeakMap(), writer];
  }

  /** Tokens kept free for the reply, and those every prompt spends before its messages (system prompt, tools). */
  #budget(window: number, system: string | undefined, tools: readonly ToolDeclaration[], maxTokens: number | undefined): { reserved: number; fixed: number } {
    return {
      reserved: this.options.reserve ?? maxTokens ?? Math.min(512, Math.floor(window / 8)),
      fixed: this.#systemTokens(system ?? '') + (tools.length ? this.#declared(tools) + TOOLS_OVERHEAD : 0) + MESSAGE_OVERHEAD,
    };
  }

  /** Shorten oversized old results, then drop the oldest whole exchanges, until the prompt fits `budget`. */
  #trim(messages: readonly ChatMessage[], keepFrom: number, window: number, budget: number, promptFrom: (from: number) => number): void {
    const oversized = OVERSIZED * window;
    for (let i = this.#from; i < keepFrom && promptFrom(this.#from) > budget; i++) {
      const m = messages[i]!;
      if (m.role === 'tool' && !this.#shortened.has(m) && m.results.some((r) => countTokens(r.content) > oversized)) {
        this.#shortened.add(m);
        this.#counted.delete(m);
        this.#rendered.delete(m);
      }
    }
    while (promptFrom(this.#from) > budget && this.#from < keepFrom) {
      // The next exchange starts at the next user message.
      let next = this.#from + 1;
      while (next < keepFrom && messages[next]!.role !== 'user') next++;
      this.#from = next;
      this.#summary = undefined;
    }
  }

  #summaryTokens(): number {
    return this.#summary ? this.#summaryCount(this.#summary) + MESSAGE_OVERHEAD : 0;
  }

  #declared(tools: readonly ToolDeclaration[]): number {
    let n = this.#toolTokens.get(tools);
    if (n === undefined) this.#toolTokens.set(tools, (n = countTokens(JSON.stringify(tools))));
    return n;
  }

  #tokens(message: ChatMessage): number {
    let n = this.#counted.get(message);
    if (n === undefined) this.#counted.set(message, (n = this.#count(message)));
    return n;
  }

  #count(message: ChatMessage): number {
    switch (message.role) {
      case 'user':
        return countTokens(message.content) + MESSAGE_OVERHEAD;
      case 'assistant':
        // A turn read as data is read as its text and calls (toModelMessage), whatever its raw and its count say.
        if (!ownTurn(message, this.#writer)) return countTokens(message.text) + sum(message.toolCalls.map((c) => countTokens(`${c.name} ${JSON.stringify(c.arguments)}`))) + MESSAGE_OVERHEAD;
        return (message.tokens ?? countTokens(message.raw)) + MESSAGE_OVERHEAD;
      case 'tool':
        return sum(this.#results(message).map((r) => countTokens(r.content) + MESSAGE_OVERHEAD));
    }
  }

  #results(message: Extract<ChatMessage, { role: 'tool' }>): ToolResultRecord[] {
    if (!this.#shortened.has(message)) return message.results;
    return message.results.map((r) => ({ ...r, content: shorten(r.content) }));
  }

  #render(messages: readonly ChatMessage[]): ModelMessage[] {
    const view = messages.slice(this.#from).map((m) => {
      let rendered = this.#rendered.get(m);
      if (!rendered) this.#rendered.set(m, (rendered = m.role === 'tool' ? { role: 'tool', results: this.#results(m).map(({ name, content }) => ({ name, content })) } : toModelMessage(m, this.#writer)));
      return rendered;
    });
    if (!this.#summary) return view;
    if (this.#summaryMessage?.content !== this.#summary) this.#summaryMessage = { role: 'user', content: this.#summary };
    return [this.#summaryMessage, ...view];
  }
}

function shorten(content: string): string {
  if (content.length <= SHORTENED_CHARS) return content;
  const cut = /[\uD800-\uDBFF]/.test(content[SHORTENED_CHARS - 1]!) ? SHORTENED_CHARS - 1 : SHORTENED_CHARS;
  return `${content.slice(0, cut)}… [shortened to fit the context window: ${content.length - cut} more characters not shown]`;
}

/** The conversation in the terms of `writer`, the model it goes to (`modelWriter`). */
function toModelMessage(message: ChatMessage, writer: string): ModelMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      // A turn this model did not write is data, whatever its raw says: the worker writes it from its text and calls.
      if (!ownTurn(message, writer)) return { role: 'assistant', text: message.text, calls: message.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })) };
      // An interrupted turn goes back as what was shown: a half-written call
      // would only confuse the model, and WebLLM rebuilds its cache after an
      // interrupt anyway.
      const calls = message.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments }));
      return { role: 'assistant', raw: message.finishReason === 'abort' || message.finishReason === 'error' ? message.text : message.raw, text: message.text, calls };
    case 'tool':
      // As stored: the worker escapes control tokens where it renders the prompt.
      return { role: 'tool', results: message.results.map((r) => ({ name: r.name, content: r.content })) };
  }
}

/** The turn is `writer`'s own output: its raw goes as markup. */
function ownTurn(message: AssistantMessage, writer: string): boolean {
  return !message.foreign && message.writer === writer;
}

function lastUserIndex(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return i;
  return 0;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
