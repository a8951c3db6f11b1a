// A tabagent model as the AI SDK's LanguageModelV4: one doGenerate or
// doStream is one model request in the worker (no tabagent loop: the AI SDK
// runs the loop, its tools and approvals; this never runs a tool).
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamPart, LanguageModelV4StreamResult, LanguageModelV4Usage, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import { modelWriter, type CallInputEvent, type ChatModel, type ModelInfo, type ModelResponse } from '../shared/model.js';
import { prepareRequest, type PreparedRequest } from './model-request.js';
import { contentOf, replyParts } from './model-reply.js';
import type { OwnRaws } from './own-raws.js';
import { PROVIDER, rawMetadata } from './prompt.js';

/** Where a language model's requests go: a model slot that can say what it is, load it and wait for it. */
export interface ModelSource extends Pick<ChatModel, 'generate'> {
  readonly modelId: string;
  /** Resolves once the model can generate: at once, after the load in flight, or after loading it. */
  ready(signal?: AbortSignal): Promise<ModelInfo>;
}

export class TabAgentLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = PROVIDER;
  /** On-device models read text only: no URL is passed on as it is. */
  readonly supportedUrls: Record<string, RegExp[]> = {};

  /**
   * @internal Made by createTabAgent or languageModelOf. `raws`: the raws the
   * model emitted, the only ones its prompts may give back as markup (shared
   * by the language models of one worker, whose KV cache they keep).
   */
  constructor(
    private readonly source: ModelSource,
    private readonly raws: OwnRaws,
  ) {}

  get modelId(): string {
    return this.source.modelId;
  }

  /** Load the model if it is not loaded (a model call does so too), and resolve with it once it can generate. */
  ready(signal?: AbortSignal): Promise<ModelInfo> {
    return this.source.ready(signal);
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const signal = options.abortSignal;
    const { info, prepared, writer } = await this.#prepare(options);
    const response = await this.source.generate(prepared.request, { signal });
    if (response.finishReason === 'abort') throw abortReason(signal);
    const parts = replyParts(response, prepared.answer, () => newCallId());
    if (!parts.answered && !response.foreign) this.raws.remember(response.raw, writer);
    return {
      content: contentOf(parts, response.raw),
      finishReason: parts.finishReason,
      usage: parts.usage,
      warnings: prepared.warnings,
      request: { body: prepared.request },
      response: { modelId: info.modelId, timestamp: new Date() },
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { info, prepared, writer: model } = await this.#prepare(options);
    // Ended by the caller's signal, or by the reader cancelling the stream.
    const stop = new AbortController();
    const signal = options.abortSignal ? AbortSignal.any([options.abortSignal, stop.signal]) : stop.signal;
    let writer!: StreamWriter;
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start: (controller) => {
        writer = new StreamWriter(controller, prepared.answer?.name);
        writer.send({ type: 'stream-start', warnings: prepared.warnings });
        writer.send({ type: 'response-metadata', modelId: info.modelId, timestamp: new Date() });
        this.source
          .generate(prepared.request, { signal, onText: (delta) => writer.text(delta), onReasoning: (delta) => writer.reasoning(delta), onCallInput: (event) => writer.callInput(event) })
          .then(
            (response) => (response.finishReason === 'abort' ? writer.fail(abortReason(signal)) : writer.finish(response, prepared, (raw) => this.raws.remember(raw, model))),
            // Stopped by the caller: the stream fails with the abort, as a fetch's body does; else the error is a part.
            (error: unknown) => (signal.aborted ? writer.fail(abortReason(signal)) : writer.error(error)),
          );
      },
      cancel: (reason) => {
        // The reader stopped listening: the generation stops, and what it still sends goes nowhere.
        writer.close();
        stop.abort(reason);
      },
    });
    return { stream, request: { body: prepared.request } };
  }

  /** `writer`: the model the request goes to (`modelWriter`), whose raws alone it trusts and the raw it writes is remembered as. */
  async #prepare(options: LanguageModelV4CallOptions): Promise<{ info: ModelInfo; prepared: PreparedRequest; writer: string }> {
    const info = await this.source.ready(options.abortSignal);
    const writer = modelWriter(info);
    return { info, prepared: prepareRequest(options, info, (raw) => this.raws.has(raw, writer)), writer };
  }
}

/**
 * The parts of one streamed turn, in the order the spec's providers send
 * them: reasoning as it is written, then text as it is written (the reasoning
 * part ends when the text starts), each call's input as it is written
 * (tool-input-start, -delta, -end: its arguments' JSON text, never the call
 * markup), then the calls (tool-call) and finish when the turn ends. The
 * input parts are provisional (providerMetadata.tabagent.provisional): the
 * call is known whole and read only with its tool-call, which alone runs a
 * tool; an input that turns out to be no call is ended with no tool-call.
 * A call the format could not follow as it was written (pythonic lists) gets
 * its input parts at the end, whole, right before its tool-call.
 */
class StreamWriter {
  #reasoning = false;
  #text = false;
  #open = true;
  /** The id each call being written streams under, by its index in the generation. */
  readonly #inputs = new Map<number, string>();
  /** The id of each ended input, by the place of its call in the response. */
  readonly #tied = new Map<number, string>();
  /**
   * With a JSON answer's tool, the text written so far, held: if the answer
   * comes, it alone is the turn's text, as doGenerate gives it (the AI SDK
   * reads a step's text as the output); if not, the text goes at the end.
   */
  #held: string | null;

  constructor(
    private readonly controller: ReadableStreamDefaultController<LanguageModelV4StreamPart>,
    /** The JSON answer's tool (structured output with tools): its call is the turn's text, never shown as a call. */
    private readonly answer: string | undefined,
  ) {
    this.#held = answer === undefined ? null : '';
  }

  /** A part, while the stream is open (text still on its way after an abort goes nowhere). */
  send(part: LanguageModelV4StreamPart): void {
    if (this.#open) this.controller.enqueue(part);
  }

  fail(error: unknown): void {
    if (this.#open) this.controller.error(error);
    this.#open = false;
  }

  /**
   * The model failed once the stream had started: an error part, then the
   * stream ends as @ai-sdk/openai-compatible ends one after an error chunk
   * (open parts closed, finish with the unified reason 'error'), so
   * streamText's onError runs and the text so far stays in its result.
   */
  error(error: unknown): void {
    // A call being written when the model failed is ended: it never became a call.
    for (const id of this.#inputs.values()) this.send({ type: 'tool-input-end', id, providerMetadata: provisional() });
    this.#inputs.clear();
    this.#release();
    this.send({ type: 'error', error });
    this.#endReasoning();
    if (this.#text) this.send({ type: 'text-end', id: 'txt-0' });
    this.#text = false;
    this.send({ type: 'finish', finishReason: { unified: 'error', raw: undefined }, usage: UNKNOWN_USAGE });
    this.#close();
  }

  close(): void {
    this.#open = false;
  }

  reasoning(delta: string): void {
    if (!delta) return;
    if (!this.#reasoning) this.send({ type: 'reasoning-start', id: 'reasoning-0' });
    this.#reasoning = true;
    this.send({ type: 'reasoning-delta', id: 'reasoning-0', delta });
  }

  text(delta: string): void {
    if (!delta) return;
    if (this.#held !== null) {
      this.#held += delta;
      return;
    }
    this.#endReasoning();
    if (!this.#text) this.send({ type: 'text-start', id: 'txt-0' });
    this.#text = true;
    this.send({ type: 'text-delta', id: 'txt-0', delta });
  }

  callInput(event: CallInputEvent): void {
    if (event.type === 'start') {
      if (event.name === this.answer) return;
      const id = newCallId();
      this.#inputs.set(event.index, id);
      this.send({ type: 'tool-input-start', id, toolName: event.name, providerMetadata: provisional() });
      return;
    }
    const id = this.#inputs.get(event.index);
    if (id === undefined) return;
    if (event.type === 'delta') {
      this.send({ type: 'tool-input-delta', id, delta: event.delta, providerMetadata: provisional() });
      return;
    }
    this.#inputs.delete(event.index);
    this.send({ type: 'tool-input-end', id, providerMetadata: provisional() });
    if (event.call !== null) this.#tied.set(event.call, id);
  }

  /** `remember`: keep the raw as the model's own, to trust when it comes back. */
  finish(response: ModelResponse, prepared: PreparedRequest, remember: (raw: string) => void): void {
    const parts = replyParts(response, prepared.answer, (call) => this.#tied.get(call) ?? newCallId());
    const streamed = new Set(this.#tied.values());
    this.#endReasoning();
    if (!parts.answered && !response.foreign) remember(response.raw);
    const raw = parts.answered ? undefined : rawMetadata(response.raw);
    if (!parts.answered) this.#release();
    if (parts.answered) {
      // The JSON answer came as a call: it shows as the turn's text.
      if (this.#text) this.send({ type: 'text-end', id: 'txt-0' });
      this.send({ type: 'text-start', id: 'txt-1' });
      this.send({ type: 'text-delta', id: 'txt-1', delta: parts.text });
      this.send({ type: 'text-end', id: 'txt-1' });
    } else if (this.#text || parts.calls.length === 0) {
      // A turn with no calls ends with its text part, which carries the raw output (an empty one if need be).
      if (!this.#text) this.send({ type: 'text-start', id: 'txt-0' });
      this.send({ type: 'text-end', id: 'txt-0', ...(parts.calls.length === 0 && raw ? { providerMetadata: raw } : {}) });
    }
    parts.calls.forEach((call, i) => {
      if (!streamed.has(call.toolCallId)) {
        this.send({ type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName });
        this.send({ type: 'tool-input-delta', id: call.toolCallId, delta: call.input });
        this.send({ type: 'tool-input-end', id: call.toolCallId });
      }
      this.send({ ...call, ...(i === parts.calls.length - 1 && raw ? { providerMetadata: raw } : {}) });
    });
    this.send({ type: 'finish', finishReason: parts.finishReason, usage: parts.usage });
    this.#close();
  }

  #close(): void {
    if (this.#open) this.controller.close();
    this.#open = false;
  }

  /** The held text, sent (no JSON answer came). */
  #release(): void {
    const held = this.#held;
    this.#held = null;
    if (held) this.text(held);
  }

  #endReasoning(): void {
    if (this.#reasoning) this.send({ type: 'reasoning-end', id: 'reasoning-0' });
    this.#reasoning = false;
  }
}

/** A failed call's usage: the worker's count went with its result. */
const UNKNOWN_USAGE: LanguageModelV4Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.aborted ? signal.reason : new DOMException('The model call was stopped.', 'AbortError');
}

/** Marks the parts of a call still being written: see StreamWriter. */
function provisional(): SharedV4ProviderMetadata {
  return { [PROVIDER]: { provisional: true } };
}

function newCallId(): string {
  return `call_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
}
