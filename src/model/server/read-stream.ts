// A server model's stream parts as a ModelResponse: text and reasoning
// streamed as they come, calls as parsed calls for tabagent's loop, usage
// and the finish reason in tabagent's terms.
//
// How it settles:
// - The stream ends with its finish part: resolves with the turn. Calls
//   are told through onCallInput as they are written (call-inputs.ts).
// - The signal aborts (the provider's stream rejects, or ends early):
//   resolves with finishReason 'abort', the text shown so far, no calls.
// - The stream ends with no finish part: rejects with ModelError.
// - A reply longer than MAX_REPLY_CHARS: the stream is cancelled, and it
//   rejects with ModelError.
// - An error part, or the provider throws: rejects with ModelError carrying
//   the provider's message (only its message: a request's URL or headers
//   may hold the app's key); what was shown has gone through onText.
import { ModelError } from '../../errors/index.js';
import type { FinishReason, GenerateOptions, ModelResponse, ModelUsage } from '../../shared/model.js';
import type { JsonObject } from '../../shared/json.js';
import type { ParsedCall } from '../../shared/tool-protocol.js';
import type { ServerStreamPart } from './language-model.js';
import { CallInputs } from './call-inputs.js';
import { providerError } from './provider-error.js';

/**
 * The most a reply may hold, text and reasoning together, in characters: a
 * provider that ignores the token limit would stream until the page's memory
 * (or V8's longest string) gave out. Far past any window's worth of tokens.
 */
export const MAX_REPLY_CHARS = 16 * 2 ** 20;

export async function readStream(stream: ReadableStream<ServerStreamPart>, options: GenerateOptions): Promise<ModelResponse> {
  const { signal, onText, onReasoning, onCallInput } = options;
  const written = new CallInputs(onCallInput);
  let text = '';
  let reasoning = '';
  const inputs: Array<{ name: string; input: string }> = [];
  let finish: Extract<ServerStreamPart, { type: 'finish' }> | undefined;
  const reader = stream.getReader();
  const cancel = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      let next: ReadableStreamReadResult<ServerStreamPart>;
      try {
        next = await reader.read();
      } catch (error) {
        if (signal?.aborted) break;
        throw providerError(error);
      }
      if (next.done || signal?.aborted) break;
      const part = next.value;
      if ((isPart(part, 'text-delta') || isPart(part, 'reasoning-delta')) && text.length + reasoning.length + part.delta.length > MAX_REPLY_CHARS) {
        void reader.cancel().catch(() => undefined);
        throw new ModelError(`the reply ran past ${MAX_REPLY_CHARS} characters: the provider did not stop at the token limit`);
      }
      if (isPart(part, 'text-delta')) {
        text += part.delta;
        onText?.(part.delta);
      } else if (isPart(part, 'reasoning-delta')) {
        reasoning += part.delta;
        onReasoning?.(part.delta);
      } else if (isPart(part, 'tool-input-start')) {
        if (!part.providerExecuted) written.start(part.id, part.toolName);
      } else if (isPart(part, 'tool-input-delta')) written.delta(part.id, part.delta);
      else if (isPart(part, 'tool-call')) {
        // A tool the provider ran itself is not tabagent's to run.
        if (part.providerExecuted) continue;
        inputs.push({ name: part.toolName, input: part.input });
        written.called(part.toolCallId, part.toolName, part.input, inputs.length - 1);
      } else if (isPart(part, 'finish')) finish = part;
      else if (isPart(part, 'error')) throw providerError(part.error);
    }
  } finally {
    written.close();
    signal?.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
  const usage = usageOf(finish);
  if (signal?.aborted) return { raw: text, foreign: true, text, reasoning, calls: [], finishReason: 'abort', usage };
  // Cut off (a dropped connection, a provider that broke off): its calls may be half there, so none is read.
  if (!finish) throw new ModelError('the stream ended before the model finished its reply');
  const finishReason = finishOf(finish.finishReason.unified);
  return { raw: text, foreign: true, text, reasoning, calls: inputs.map((c) => parseCall(c, finishReason === 'length')), finishReason, usage };
}

function isPart<T extends ServerStreamPart['type']>(part: ServerStreamPart, type: T): part is Extract<ServerStreamPart, { type: T }> {
  return part.type === type;
}

/** The spec's unified reasons: a call or a filter still ends the turn; 'interrupted' is the provider's abort. */
function finishOf(unified: string): FinishReason {
  if (unified === 'length') return 'length';
  if (unified === 'error') return 'error';
  if (unified === 'interrupted') return 'abort';
  return 'stop';
}

function usageOf(finish: Extract<ServerStreamPart, { type: 'finish' }> | undefined): ModelUsage {
  const input = finish?.usage.inputTokens;
  const cached = input?.cacheRead;
  const promptTokens = input?.noCache ?? (input?.total !== undefined ? input.total - (cached ?? 0) : 0);
  return { promptTokens, completionTokens: finish?.usage.outputTokens.total ?? 0, ...(cached !== undefined ? { cachedTokens: cached } : {}) };
}

function parseCall({ name, input }: { name: string; input: string }, cutOff: boolean): ParsedCall {
  let value: unknown;
  try {
    // Providers send `{}` as '' when a tool takes no arguments.
    value = input.trim() === '' ? {} : JSON.parse(input);
  } catch (error) {
    return { name, problem: { truncated: cutOff, detail: (error as Error).message } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { name, problem: { truncated: false, detail: 'the arguments are not a JSON object' } };
  return { name, arguments: value as JsonObject };
}
