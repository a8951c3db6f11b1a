// Structured output: what generateObject takes and gives, and the object as
// it streams (generateObjectStream): it grows as the model writes it, then
// `result` holds the reply with the object checked against the schema.
//
// How it settles:
// - Each value yielded is the reply's JSON so far, closed up and parsed, and
//   only when it changed; it is not validated (a half-written object rarely fits).
// - The iterator ends after the run; if the run failed, or the finished reply
//   does not fit the schema, it throws that error (InvalidObjectError).
// - Stopping early (`break`) aborts the run, as a ChatStream does.
import type { ChatStream } from '../run/chat-stream.js';
import type { Reply } from '../shared/chat.js';
import type { GenerationOptions } from '../shared/model.js';
import type { ObjectOutput, ObjectSchema } from '../tools/object-output.js';

export interface GenerateObjectOptions<T> {
  /** A zod schema (the result is typed by it), or a JSON Schema object. */
  schema: ObjectSchema<T>;
  prompt: string;
  signal?: AbortSignal;
  generation?: GenerationOptions;
}

/** A reply whose text is a JSON value that fits the schema, read back as `object`. */
export type ObjectReply<T> = Reply & { object: T };

export interface ObjectStream<T> extends AsyncIterableIterator<unknown> {
  /** The reply, with the object read and checked (also when the stream is not read). */
  readonly result: Promise<ObjectReply<T>>;
}

export function objectStream<T>(stream: ChatStream, output: ObjectOutput<T>): ObjectStream<T> {
  const result = stream.reply.then(async (reply) => ({ ...reply, object: await output.read(reply.text, reply.finishReason) }));
  // Its rejection is reported by the iterator (or to whoever awaits `result`).
  result.catch(() => undefined);
  // Asked for at once: while it loads, the text that comes is merged, not lost.
  const reader = import('../tools/partial-json.js');
  async function* partials(): AsyncGenerator<unknown, undefined> {
    const { partialJson } = await reader;
    let text = '';
    let last: string | undefined;
    for await (const part of stream) {
      if (part.type !== 'text') continue;
      text += part.text;
      const value = partialJson(text);
      const key = JSON.stringify(value);
      if (value !== undefined && key !== last) {
        last = key;
        yield value;
      }
    }
    await result;
    return undefined;
  }
  return Object.assign(partials(), { result });
}
