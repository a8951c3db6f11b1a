// A run as an async iterable of typed parts, in the order things happen:
// text, reasoning and calls as the model writes them, each call once it is
// complete (and stored), approval requests, tool progress and results, the
// end of each step, then one final part with the Reply.
//
// How a stream settles:
// - Parts come in the order they happened; text (or reasoning) deltas of one
//   step, or a call's input deltas, that pile up between two reads are merged
//   into one part.
// - Then exactly one `final` part, then the iterator is done.
// - A run that fails: the iterator throws its error, after the text before it.
// - A consumer that stops early (`break`, `return()`): the run is aborted and
//   its AbortError is not reported to anyone.
import type { ToolEventName, ToolEvents } from '../calls/tool-events.js';
import type { FinishReason } from '../shared/model.js';
import type { Reply, StepUsage, ToolCall, ToolResultRecord } from '../shared/chat.js';

/** One part of a run's stream. `step` is the model call it belongs to (`Step.index`). */
export type StreamPart =
  | { type: 'text'; step: number; text: string }
  | { type: 'reasoning'; step: number; text: string }
  /**
   * A call as the model writes it, before it is complete (provisional): the
   * `delta`s of its `callId` join into its arguments as compact JSON.
   */
  | { type: 'tool-input-start'; step: number; callId: string; toolName: string }
  | { type: 'tool-input-delta'; step: number; callId: string; delta: string }
  /** The call's text is decided: `call`, a `tool-call` part with this `callId` follows (valid or not); else it was no call after all. */
  | { type: 'tool-input-end'; step: number; callId: string; call: boolean }
  /** A call the model made, complete and stored. */
  | { type: 'tool-call'; step: number; call: ToolCall }
  /** A call needs approval and `approve` is asked. */
  | { type: 'approval-request'; step: number; callId: string; toolName: string; input: unknown }
  /** A handler's `ctx.update(details)`. */
  | { type: 'tool-progress'; step: number; callId: string; toolName: string; details: unknown }
  /** A managed call ended: what the model will read, and what became of it. */
  | { type: 'tool-result'; step: number; result: ToolResultRecord }
  /** A step is over: its model call, and its tools if they ran. */
  | { type: 'step-end'; step: number; finishReason: FinishReason; usage: StepUsage; modelMs: number; toolMs: number }
  | { type: 'final'; reply: Reply };

export type StreamRun = (onPart: (part: StreamPart) => void, signal: AbortSignal) => Promise<Reply>;

export class ChatStream implements AsyncIterableIterator<StreamPart> {
  readonly #queue: StreamPart[] = [];
  #wake: (() => void) | null = null;
  #failure: { error: unknown } | null = null;
  #finished = false;
  #closed = false;
  readonly #stop = new AbortController();
  /** The run's reply (or its error), also when the stream is not read. */
  readonly reply: Promise<Reply>;

  constructor(run: StreamRun, signal?: AbortSignal) {
    const combined = signal ? AbortSignal.any([signal, this.#stop.signal]) : this.#stop.signal;
    this.reply = run((part) => this.#push(part), combined);
    this.reply.then(
      (reply) => {
        this.#queue.push({ type: 'final', reply });
        this.#finished = true;
        this.#wakeUp();
      },
      (error: unknown) => {
        this.#failure = { error };
        this.#finished = true;
        this.#wakeUp();
      },
    );
  }

  async next(): Promise<IteratorResult<StreamPart>> {
    for (;;) {
      if (this.#closed) return { done: true, value: undefined };
      const chunk = this.#queue.shift();
      if (chunk) {
        if (chunk.type === 'final') this.#closed = true;
        return { done: false, value: chunk };
      }
      if (this.#failure) {
        this.#closed = true;
        throw this.#failure.error;
      }
      if (this.#finished) return { done: true, value: undefined };
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  async return(): Promise<IteratorResult<StreamPart>> {
    if (!this.#closed) {
      this.#closed = true;
      if (!this.#finished) {
        this.reply.catch(() => undefined);
        this.#stop.abort(new DOMException('The stream was closed before the run ended.', 'AbortError'));
      }
    }
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #push(part: StreamPart): void {
    if (this.#closed) return;
    const last = this.#queue.at(-1);
    if ((part.type === 'text' || part.type === 'reasoning') && last?.type === part.type && last.step === part.step) last.text += part.text;
    else if (part.type === 'tool-input-delta' && last?.type === part.type && last.callId === part.callId) last.delta += part.delta;
    else this.#queue.push({ ...part });
    this.#wakeUp();
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}

/** A tool event as the run's stream tells it (undefined for those it does not). */
export function toolPart<K extends ToolEventName>(type: K, event: ToolEvents[K], step: number): StreamPart | undefined {
  if (type === 'tool-progress') return { type, step, ...(event as ToolEvents['tool-progress']) };
  if (type === 'approval-request') return { type, step, ...(event as ToolEvents['approval-request']) };
  if (type !== 'tool-end') return undefined;
  const { toolName, ...ended } = event as ToolEvents['tool-end'];
  return { type: 'tool-result', step, result: { ...ended, name: toolName } };
}
