// A strict stand-in of Chrome's `LanguageModel` (the Prompt API), written
// from the spec's WebIDL and algorithms and its explainer:
// webmachinelearning/prompt-api at commit 2e27365ed877c3381126fcd0e10d5e0b8114c199
// (index.bs, README.md). It refuses what the spec refuses, with the same
// DOMException names:
// - a system message anywhere but first in the first input → TypeError (DOMException);
// - `prefix` on any message but a last assistant one → SyntaxError;
// - an assistant message with non-text content → NotSupportedError;
// - `omitResponseConstraintInput` without `responseConstraint` → TypeError;
// - a prompt past the context window → QuotaExceededError (`requested`, `quota`);
//   initial prompts past it reject create() the same way;
// - anything after destroy(), and a create() aborted → AbortError (the
//   explainer: "an AbortError DOMException, or the given abort reason");
// - availability 'unavailable' → create() rejects with NotSupportedError.
// Stricter than Chrome, so tabagent relies on nothing Chrome ignores: an
// option the WebIDL dictionary does not have (and `topK`/`temperature`,
// which the spec keeps for extensions only) is a TypeError, not ignored;
// and an output that breaks the `responseConstraint` (Chrome decodes within
// it, so it cannot happen there) errors the prompt with UnknownError.
// Streams give the reply's new text per chunk (the spec's chunkProduced).
// Overflow evicts nothing: it always fails, and fires no contextoverflow.
//
// The "model" is pluggable: a function from the session's context to the
// reply (a string, or its chunks), so tests script outputs; an e2e page can
// make it run a real engine.
import { fromJSONSchema } from 'zod';
import { registry } from 'zod/v4/core';
import { countTokens } from '../protocol/token-estimate.js';
import type { Availability, LanguageModelApi, LanguageModelMessage, LanguageModelPrompt, LanguageModelSession } from '../model/prompt-api/language-model.js';

/** What the stand-in's model sees for one reply. */
export interface StandInTurn {
  /** Everything the session holds, the new input last. */
  context: LanguageModelMessage[];
  /** The messages this prompt gave. */
  input: LanguageModelMessage[];
  responseConstraint?: object;
  signal: AbortSignal;
}

export type StandInModel = (turn: StandInTurn) => string | Promise<string> | AsyncIterable<string>;

export interface StandInOptions {
  model: StandInModel;
  availability?: Availability;
  /** Tokens a session holds (default 4096). */
  contextWindow?: number;
  /** `downloadprogress` fractions create() reports before it resolves (when 'downloadable'). */
  download?: number[];
}

/** One thing the stand-in was given: how many tokens, and by which call. */
export interface StandInInput {
  call: 'create' | 'prompt' | 'append';
  tokens: number;
  messages: LanguageModelMessage[];
}

export interface StandIn extends LanguageModelApi {
  /** Every input any session was given, in order. */
  readonly inputs: StandInInput[];
  /** Sessions alive (not destroyed). */
  readonly live: () => number;
}

const CORE_OPTIONS = ['expectedInputs', 'expectedOutputs', 'samplingMode', 'tools'];
const CREATE_OPTIONS = [...CORE_OPTIONS, 'signal', 'monitor', 'initialPrompts'];
const PROMPT_OPTIONS = ['responseConstraint', 'omitResponseConstraintInput', 'signal'];
/** Every message costs this many tokens of control markup (the explainer: counts include control tokens). */
const PER_MESSAGE = 4;

function domError(name: string, message: string): DOMException {
  return new DOMException(message, name);
}

function checkOptions(options: object | undefined, known: string[], what: string): void {
  for (const key of Object.keys(options ?? {})) {
    if (!known.includes(key)) throw domError('TypeError', `${what}: "${key}" is not an option the web's Prompt API takes`);
  }
}

/** The spec's "validate and canonicalize a prompt", for text. */
function canonical(input: LanguageModelPrompt, hasAppendedInput: boolean): LanguageModelMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) throw new TypeError('The prompt must be a string or a list of messages.');
  if (input.length === 0) return [{ role: 'user', content: '' }];
  let appended = hasAppendedInput;
  return input.map((message, i) => {
    if (!['system', 'user', 'assistant'].includes(message.role)) throw new TypeError(`"${String(message.role)}" is not a LanguageModelMessageRole.`);
    if (message.prefix && (message.role !== 'assistant' || i !== input.length - 1)) throw domError('SyntaxError', 'Only a last assistant message may be a prefix.');
    if (message.role === 'system' && appended) throw domError('TypeError', 'A system message must come first.');
    let content: string;
    if (typeof message.content === 'string') content = message.content;
    else if (Array.isArray(message.content)) {
      const parts = message.content as Array<{ type: string; value: unknown }>;
      if (message.role === 'assistant' && parts.some((p) => p.type !== 'text')) throw domError('NotSupportedError', 'Assistant messages hold text only.');
      if (parts.some((p) => p.type !== 'text')) throw domError('NotSupportedError', 'This session expects text input only.');
      if (parts.some((p) => typeof p.value !== 'string')) throw domError('TypeError', 'Text content must be a string.');
      content = parts.map((p) => p.value as string).join('');
    } else throw new TypeError('A message content must be a string or a list of contents.');
    appended = true;
    return { role: message.role, content, ...(message.prefix ? { prefix: true } : {}) };
  });
}

function usageOf(messages: LanguageModelMessage[]): number {
  return messages.reduce((n, m) => n + PER_MESSAGE + countTokens(m.content), 0);
}

function quotaError(requested: number, quota: number): DOMException {
  return Object.assign(domError('QuotaExceededError', `The input needs ${requested} tokens; the context window holds ${quota}.`), { requested, quota });
}

export function promptApiStandIn(options: StandInOptions): StandIn {
  const window = options.contextWindow ?? 4096;
  const inputs: StandInInput[] = [];
  let live = 0;

  class Session extends EventTarget implements LanguageModelSession {
    #context: LanguageModelMessage[] = [];
    #usage = 0;
    readonly #destroyed = new AbortController();
    /** Prompts run one at a time, as Chrome queues them. */
    #queue: Promise<unknown> = Promise.resolve();
    oncontextoverflow: ((event: Event) => void) | null = null;

    constructor(context: LanguageModelMessage[], usage: number, createSignal?: AbortSignal) {
      super();
      this.#context = context;
      this.#usage = usage;
      live++;
      createSignal?.addEventListener('abort', () => this.destroy(), { once: true });
    }

    get contextUsage() {
      return this.#usage;
    }

    get contextWindow() {
      return window;
    }

    destroy(): void {
      if (this.#destroyed.signal.aborted) return;
      live--;
      this.#destroyed.abort(domError('AbortError', 'The session was destroyed.'));
    }

    #signal(signal?: AbortSignal): AbortSignal {
      return signal ? AbortSignal.any([this.#destroyed.signal, signal]) : this.#destroyed.signal;
    }

    #prefill(input: LanguageModelPrompt, call: 'prompt' | 'append'): LanguageModelMessage[] {
      const messages = canonical(input, this.#usage > 0);
      const requested = usageOf(messages);
      if (this.#usage + requested > window) throw quotaError(this.#usage + requested, window);
      inputs.push({ call, tokens: requested, messages: [...messages] });
      this.#context.push(...messages);
      this.#usage += requested;
      return messages;
    }

    async measureContextUsage(input: LanguageModelPrompt, opts: { responseConstraint?: object; omitResponseConstraintInput?: boolean; signal?: AbortSignal } = {}): Promise<number> {
      checkOptions(opts, PROMPT_OPTIONS, 'measureContextUsage');
      if (opts.omitResponseConstraintInput && !opts.responseConstraint) throw domError('TypeError', 'omitResponseConstraintInput needs a responseConstraint.');
      this.#signal(opts.signal).throwIfAborted();
      return usageOf(canonical(input, this.#usage > 0));
    }

    async append(input: LanguageModelPrompt, opts: { signal?: AbortSignal } = {}): Promise<void> {
      checkOptions(opts, ['signal'], 'append');
      const signal = this.#signal(opts.signal);
      await this.#run(async () => {
        signal.throwIfAborted();
        this.#prefill(input, 'append');
      });
    }

    prompt(input: LanguageModelPrompt, opts: { responseConstraint?: object; omitResponseConstraintInput?: boolean; signal?: AbortSignal } = {}): Promise<string> {
      const stream = this.promptStreaming(input, opts);
      return (async () => {
        let reply = '';
        for await (const chunk of stream as unknown as AsyncIterable<string>) reply += chunk;
        return reply;
      })();
    }

    promptStreaming(input: LanguageModelPrompt, opts: { responseConstraint?: object; omitResponseConstraintInput?: boolean; signal?: AbortSignal } = {}): ReadableStream<string> {
      checkOptions(opts, PROMPT_OPTIONS, 'prompt');
      if (opts.omitResponseConstraintInput && !opts.responseConstraint) throw domError('TypeError', 'omitResponseConstraintInput needs a responseConstraint.');
      const check = opts.responseConstraint ? constraintCheck(opts.responseConstraint) : undefined;
      const signal = this.#signal(opts.signal);
      const pump = async (controller: ReadableStreamDefaultController<string>) => {
        try {
          await this.#run(async () => {
            signal.throwIfAborted();
            const given = this.#prefill(input, 'prompt');
            const out = await options.model({ context: [...this.#context], input: given, responseConstraint: opts.responseConstraint, signal });
            let reply = '';
            for await (const chunk of chunksOf(out)) {
              signal.throwIfAborted();
              reply += chunk;
              controller.enqueue(chunk);
            }
            signal.throwIfAborted();
            const broken = check?.(reply);
            if (broken) throw domError('UnknownError', `The output broke the responseConstraint: ${broken}`);
            this.#context.push({ role: 'assistant', content: reply });
            this.#usage += usageOf([{ role: 'assistant', content: reply }]);
          }, signal);
          controller.close();
        } catch (error) {
          controller.error(error);
        }
      };
      return new ReadableStream<string>({ start: (controller) => void pump(controller) });
    }

    async clone(opts: { signal?: AbortSignal } = {}): Promise<LanguageModelSession> {
      checkOptions(opts, ['signal'], 'clone');
      this.#signal(opts.signal).throwIfAborted();
      return new Session([...this.#context], this.#usage);
    }

    /** One operation at a time; a wait for its turn ends with the signal. */
    #run(work: () => Promise<void>, signal?: AbortSignal): Promise<void> {
      const turn = this.#queue.then(() => {
        this.#destroyed.signal.throwIfAborted();
        return work();
      });
      this.#queue = turn.catch(() => undefined);
      if (!signal) return turn;
      return Promise.race([turn, new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))]);
    }
  }

  const availability = options.availability ?? 'available';
  return {
    inputs,
    live: () => live,
    async availability(core = {}) {
      checkOptions(core, CORE_OPTIONS, 'availability');
      return availability;
    },
    async create(opts = {}) {
      checkOptions(opts, CREATE_OPTIONS, 'create');
      opts.signal?.throwIfAborted();
      if (availability === 'unavailable') throw domError('NotSupportedError', 'The built-in model is unavailable.');
      const monitor = new EventTarget();
      opts.monitor?.(monitor as never);
      if (availability !== 'available') {
        for (const loaded of options.download ?? [0, 1]) {
          await new Promise((r) => setTimeout(r, 0));
          opts.signal?.throwIfAborted();
          monitor.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded, total: 1 }));
        }
      }
      const initial = opts.initialPrompts ? canonical(opts.initialPrompts, false) : [];
      const usage = usageOf(initial);
      if (usage > window) throw quotaError(usage, window);
      if (initial.length) inputs.push({ call: 'create', tokens: usage, messages: [...initial] });
      return new Session(initial, usage, opts.signal);
    },
  };
}

async function* chunksOf(out: string | Promise<string> | AsyncIterable<string>): AsyncIterable<string> {
  if (typeof out === 'object' && out !== null && Symbol.asyncIterator in out) yield* out;
  else yield await out;
}

/** Why `reply` breaks the JSON Schema `schema` (undefined when it fits). */
function constraintCheck(schema: object): (reply: string) => string | undefined {
  if (schema instanceof RegExp) return (reply) => (new RegExp(`^(?:${schema.source})$`, schema.flags).test(reply) ? undefined : `does not match ${String(schema)}`);
  let validator: ReturnType<typeof fromJSONSchema>;
  try {
    validator = fromJSONSchema(schema as never, { registry: registry() });
  } catch (error) {
    throw domError('NotSupportedError', `The responseConstraint is not a JSON Schema this model takes: ${(error as Error).message}`);
  }
  return (reply) => {
    let value: unknown;
    try {
      value = JSON.parse(reply);
    } catch {
      return `not JSON: ${JSON.stringify(reply.slice(0, 80))}`;
    }
    const result = validator.safeParse(value);
    return result.success ? undefined : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  };
}
