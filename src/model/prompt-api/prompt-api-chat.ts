// One loaded Prompt API model as tabagent's ChatModel: a turn is sent to the
// session that holds its conversation (only the new turns), constrained to
// the reply JSON, streamed as the answer grows, and read into text or calls.
//
// How a turn settles:
// - It fits or fails first: past the session's window it rejects with
//   ContextOverflowError, before anything is sent (the API would otherwise
//   drop the chat's oldest turns unasked).
// - Aborted: resolves with finishReason 'abort' and the text shown; the
//   session, which may hold half a turn, is destroyed.
// - A stop sequence written: resolves with the answer before it (finishReason
//   'stop', no calls), kept as that answer's JSON; the session is destroyed.
// - Failed: rejects with the typed error; the session is destroyed.
// - Done: the session, now holding the reply too, goes back to the pool
//   (unless the API dropped turns from it: then nobody can tell what it holds).
import { ContextOverflowError } from '../../errors/index.js';
import type { CallInputEvent, ChatModel, GenerateOptions, ModelInfo, ModelRequest, ModelResponse, ModelUsage } from '../../shared/model.js';
import { AnswerStream } from './answer-stream.js';
import { CallInputStream } from './call-input-stream.js';
import { createError, isAbort, promptError } from './dom-errors.js';
import type { LanguageModelApi, LanguageModelMessage, LanguageModelPromptOptions, LanguageModelSession } from './language-model.js';
import { readReply, type ReadReply } from './read-reply.js';
import { replySchema } from './reply-schema.js';
import { sessionMessages } from './session-messages.js';
import { SessionPool, type HeldSession } from './session-pool.js';

export class PromptApiChat implements ChatModel {
  readonly #pool = new SessionPool();
  /** Sessions a turn is using: close() ends them too. */
  readonly #busy = new Set<LanguageModelSession>();
  #closed: Error | undefined;

  constructor(
    private readonly api: LanguageModelApi,
    readonly info: ModelInfo,
  ) {}

  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    const { onText, onCallInput } = options;
    const messages = sessionMessages(request);
    const kept = this.#pool.take(messages);
    let held: HeldSession;
    try {
      held = kept ?? (await this.#open(messages, options.signal));
    } catch (error) {
      if (isAbort(error)) return aborted('', '', { promptTokens: 0, completionTokens: 0 });
      throw error;
    }
    // A stop sequence ends the prompt from here; the caller's signal, as an abort.
    const halt = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, halt.signal]) : halt.signal;
    const input = messages.slice(held.fed.length);
    const prompting: LanguageModelPromptOptions = { responseConstraint: replySchema(request), omitResponseConstraintInput: true, signal };
    const { session } = held;
    if (this.#closed) {
      session.destroy();
      throw this.#closed;
    }
    this.#busy.add(session);
    const window = this.info.contextWindow;
    let overflowed = false;
    const onOverflow = () => (overflowed = true);
    session.addEventListener('contextoverflow', onOverflow);
    const stream = new AnswerStream(request.output ? [] : (request.generation?.stopSequences ?? []));
    const callInputs = new CallInputStream();
    const tell = (events: CallInputEvent[]) => {
      for (const event of events) onCallInput?.(event);
    };
    let raw = '';
    let usage: ModelUsage = { promptTokens: 0, completionTokens: 0 };
    try {
      const before = session.contextUsage;
      const requested = await session.measureContextUsage(input, prompting);
      if (before + requested > session.contextWindow) throw new ContextOverflowError({ promptTokens: before + requested, reservedTokens: 0, contextWindow: window });
      // A kept session's turns were not sent again; a new one's initial prompts were sent this turn.
      usage = kept ? { promptTokens: requested, completionTokens: 0, cachedTokens: before } : { promptTokens: before + requested, completionTokens: 0, cachedTokens: 0 };
      const reader = session.promptStreaming(input, prompting).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        raw += value;
        const delta = request.output ? value : stream.push(value);
        if (delta) onText?.(delta);
        if (stream.stopped) break;
        if (!request.output) tell(callInputs.grow(raw));
      }
      if (stream.stopped) {
        halt.abort();
        void reader.cancel().catch(() => undefined);
      } else {
        const rest = request.output ? '' : stream.flush();
        if (rest) onText?.(rest);
        usage.completionTokens = Math.max(0, session.contextUsage - before - requested);
      }
    } catch (error) {
      this.#busy.delete(session);
      session.removeEventListener('contextoverflow', onOverflow);
      session.destroy();
      tell(callInputs.close([]));
      if (this.#closed) throw this.#closed;
      if (isAbort(error)) return aborted(raw, request.output ? raw : stream.shown, usage);
      throw promptError(error, window);
    }
    this.#busy.delete(session);
    session.removeEventListener('contextoverflow', onOverflow);
    if (stream.stopped) {
      // The session holds half a reply: gone. The turn is kept as the answer shown, so it replays well-formed.
      session.destroy();
      tell(callInputs.close([]));
      return { raw: JSON.stringify({ answer: stream.shown }), text: stream.shown, reasoning: '', calls: [], finishReason: 'stop', usage };
    }
    if (overflowed) session.destroy();
    else this.#pool.give({ session, fed: [...messages, { role: 'assistant', content: raw }] });
    let reply: ReadReply | undefined;
    try {
      reply = request.output ? { text: raw, calls: [] } : readReply(raw);
    } finally {
      // Every input told ends, tied to its call, or to none when the reply could not be read.
      tell(callInputs.close(reply?.calls ?? []));
    }
    return { raw, text: reply.text, reasoning: '', calls: reply.calls, finishReason: 'stop', usage };
  }

  /** A new session holding the conversation up to its last reply (a reload, another chat): the turns after it are this turn's input. */
  async #open(messages: LanguageModelMessage[], signal: AbortSignal | undefined): Promise<HeldSession> {
    const lastReply = messages.findLastIndex((m) => m.role === 'assistant');
    const initialPrompts = messages.slice(0, Math.max(1, lastReply + 1));
    try {
      const session = await this.api.create({ initialPrompts, signal });
      return { session, fed: initialPrompts };
    } catch (error) {
      throw createError(error, this.info.contextWindow);
    }
  }

  /** Destroy every session, kept or in use: a turn in flight rejects with `reason`. */
  close(reason: Error): void {
    this.#closed = reason;
    this.#pool.clear();
    for (const session of this.#busy) session.destroy();
    this.#busy.clear();
  }
}

function aborted(raw: string, text: string, usage: ModelUsage): ModelResponse {
  return { raw, text, reasoning: '', calls: [], finishReason: 'abort', usage };
}
