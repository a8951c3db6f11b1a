// The fake model at WebLLM's boundary, as strict as WebLLM 0.2.86: it checks
// the request as WebLLM does, renders the prompt with the model's MLC
// conversation template, reuses its "KV cache" only where WebLLM would, has a
// context window, and refuses scripted output the request's grammar would not
// allow. Only the sampling is fake: the text comes from a script (a list, here
// in the worker, or a function on the page), streamed token by token.
import type { FinishReason } from '../../shared/model.js';
import { nextTask } from '../../shared/next-task.js';
import type { ConvTemplate } from '../../protocol/conv-templates.js';
import { DeviceLostError, FakeGrammarError, FakeScriptError, ModelError } from '../../errors/index.js';
import type { FakeFault, FakeOutput, FakeRequest, Respond } from '../../rpc/worker-protocol.js';
import type { Engine, EngineRequest, EngineResult } from '../engine.js';
import { generationError } from '../engine-errors.js';
import { append, conversationOf, EMPTY_THINKING, promptPieces, sameConversation, type Conversation } from './conversation.js';
import { grammarBreak } from './grammar-check.js';
import { checkRequest } from './request-checks.js';
import { countTokens, splitTokens } from '../../protocol/token-estimate.js';
import { webllmError } from './webllm-error.js';

/** A list of outputs, one per generation, or a function of the request. */
export type FakeSource = { outputs: readonly FakeOutput[] } | { respond: Respond };

export interface FakeEngineOptions {
  template: ConvTemplate;
  /** Tokens the KV cache holds: WebLLM's `context_window_size`. */
  contextWindow: number;
  tokenDelayMs: number;
  /** Told of every request, for the script's record of what the model saw. */
  onRequest?: (request: FakeRequest) => void;
  /** Where the script resumes after a restart. */
  firstTurn?: number;
}

/** WebLLM's pipeline state between requests. */
interface Pipeline {
  /** The conversation as WebLLM holds it after the last reply. */
  conversation: Conversation;
  finish: FinishReason;
  /** Tokens in the KV cache. */
  filled: number;
}

export class FakeEngine implements Engine {
  private turn: number;
  private interrupted = false;
  private pipeline: Pipeline | null = null;

  constructor(
    private readonly source: FakeSource,
    private readonly options: FakeEngineOptions,
  ) {
    this.turn = options.firstTurn ?? 0;
  }

  async complete(request: EngineRequest, onDelta: (delta: string) => void): Promise<EngineResult> {
    this.interrupted = false;
    const { contextWindow } = this.options;
    // WebLLM's conversation now holds the new message and an unfinished
    // reply: unless this generation ends, the next request starts afresh.
    let prefill: ReturnType<FakeEngine['prefill']>;
    try {
      prefill = this.prefill(request);
    } catch (cause) {
      throw generationError(cause);
    } finally {
      this.pipeline = null;
    }
    const turn = this.turn++;
    const emptyThinking = request.extra_body?.enable_thinking === false;
    const seen: FakeRequest = {
      turn,
      messages: request.messages,
      prompt: prefill.prompt,
      promptTokens: prefill.tokens,
      reusedCache: prefill.reused,
      responseFormat: request.response_format,
      maxTokens: request.max_tokens,
      temperature: request.temperature,
      ...(request.stop ? { stop: request.stop } : {}),
      thinking: request.extra_body?.enable_thinking,
      last: request.messages.at(-1)?.content ?? '',
    };
    this.options.onRequest?.(seen);
    const output = await this.#output(seen);
    const { text: script, tokenDelayMs = this.options.tokenDelayMs, fault } = typeof output === 'string' ? { text: output, fault: undefined } : output;

    // WebLLM counts the empty think block it writes toward max_tokens, and
    // stops when the KV cache is full.
    const prefix = emptyThinking ? EMPTY_THINKING : '';
    const room = Math.min(request.max_tokens ?? Infinity, contextWindow - prefill.filled - prefill.tokens) - countTokens(prefix);
    let tokens = splitTokens(script);
    let finishReason: FinishReason = 'stop';
    if (tokens.length > room) {
      tokens = tokens.slice(0, Math.max(0, room));
      finishReason = 'length';
    }
    // The empty think block arrives with the first token, as WebLLM decodes it.
    const messages = replyMessages(prefix, tokens, request.stop ?? []);
    // WebLLM checks max_tokens after the stop strings: a stop on the last token the limit allows stays 'length'.
    if (messages.length < tokens.length) finishReason = 'stop';
    tokens = tokens.slice(0, messages.length);
    const stopped = messages.length > 0 && messages.at(-1) !== prefix + tokens.join('');
    // Output a model could not write under the request's grammar fails the test (no grammar: none to keep).
    if (request.response_format) {
      const produced = tokens.join('');
      const at = await grammarBreak(request.response_format, produced);
      // A reply cut by the token limit or a stop string need not be one the grammar could end.
      if (at >= 0 && !((finishReason === 'length' || stopped) && at === produced.length)) throw new FakeGrammarError(turn, produced, at);
    }

    let text = prefix;
    // What has streamed: the empty think block goes with the first token, so the deltas add up to the text.
    let streamed = '';
    let produced = 0;
    for (const message of messages) {
      // Yield before each token, so an interrupt can land mid-stream.
      await pause(tokenDelayMs);
      if (this.interrupted) {
        finishReason = 'abort';
        break;
      }
      // As WebLLM streams: what the message gained since the last token (nothing when a stop string cut it).
      const delta = message.slice(streamed.length);
      if (delta) onDelta(delta);
      text = streamed = message;
      produced++;
    }
    if (fault) return failWith(fault);
    const conversation = { system: prefill.conversation.system, messages: [...prefill.conversation.messages, { role: 'assistant' as const, content: text }] };
    this.pipeline = { conversation, finish: finishReason, filled: prefill.filled + prefill.tokens + produced };
    return { text, finishReason, usage: { promptTokens: prefill.tokens, completionTokens: produced } };
  }

  /**
   * What WebLLM prefills for this request: only the new message when the
   * conversation before it is the one in the cache and the last reply ended
   * normally; else everything, from an empty cache.
   */
  private prefill(request: EngineRequest) {
    const { template, contextWindow } = this.options;
    checkRequest(request);
    const history = conversationOf(request.messages, template);
    const previous = this.pipeline;
    const reused = previous !== null && previous.finish === 'stop' && history.messages.length > 0 && sameConversation(previous.conversation, history);
    const last = request.messages.at(-1)!;
    const conversation: Conversation = { system: history.system, messages: [...history.messages] };
    append(conversation, last.role === 'tool' ? 'tool' : 'user', last.content, template);
    const emptyThinking = request.extra_body?.enable_thinking === false;
    const from = reused ? conversation.messages.length - 1 : 0;
    const pieces = promptPieces(conversation, template, from, emptyThinking);
    const tokens = pieces.reduce((n, piece) => n + countTokens(piece), 0) + (reused ? 0 : (template.system_prefix_token_ids?.length ?? 0));
    const filled = reused ? previous!.filled : 0;
    if (tokens + filled > contextWindow) {
      throw webllmError(
        'ContextWindowSizeExceededError',
        `Prompt tokens exceed context window size: number of prompt tokens: ${tokens}; context window size: ${contextWindow}\nConsider shortening the prompt, or increase \`context_window_size\`, or using sliding window via \`sliding_window_size\`.`,
      );
    }
    const prompt = promptPieces(conversation, template, 0, emptyThinking).join('');
    return { conversation, prompt, tokens, filled, reused };
  }

  #output(request: FakeRequest): Promise<FakeOutput> {
    if ('respond' in this.source) return this.source.respond(request);
    const { outputs } = this.source;
    const output = outputs[request.turn];
    if (output === undefined) {
      throw new FakeScriptError(`The fake model's script has ${outputs.length} outputs, but generation ${request.turn + 1} was asked for.`, request.turn);
    }
    return Promise.resolve(output);
  }

  interrupt(): void {
    this.interrupted = true;
  }

  async unload(): Promise<void> {
    this.pipeline = null;
  }
}

/**
 * WebLLM's message after each token: the decoded output, cut before the
 * first of the request's stop strings it holds (lastIndexOf, as WebLLM 0.2.86's
 * processNextToken), where the generation ends.
 */
function replyMessages(prefix: string, tokens: readonly string[], stops: readonly string[]): string[] {
  const messages: string[] = [];
  let written = prefix;
  for (const token of tokens) {
    written += token;
    const stop = stops.find((s) => written.lastIndexOf(s) >= 0);
    messages.push(stop === undefined ? written : written.slice(0, written.lastIndexOf(stop)));
    if (stop !== undefined) break;
  }
  return messages;
}

/** A scripted fault, after the scripted text has streamed. */
function failWith(fault: FakeFault): never {
  switch (fault) {
    case 'model-error':
      throw new ModelError('the fake model was scripted to fail');
    case 'device-lost':
      throw new DeviceLostError('the fake model was scripted to lose its device');
    case 'worker-crash':
      // Uncaught, outside any promise: the way a worker dies of a bug.
      setTimeout(() => {
        throw new Error('the fake model was scripted to crash the worker');
      });
      return new Promise<never>(() => undefined) as never;
    case 'worker-hang':
      // Busy forever: the worker can no longer answer anything.
      for (;;) {
        // spin
      }
  }
}

/** A macrotask pause (at no delay, a message: nested timers are held to 4 ms). */
function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : nextTask();
}
