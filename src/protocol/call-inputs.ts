// The calls of one reply told as they are written (CallInputEvent), for the
// call scanner: the format follows the call text as it grows, and this turns
// what it shows into start, delta and end events, each delta what the JSON
// of the arguments gained. A region of call text (one opener's) is closed
// with the calls read from it, and each input it streamed is tied to the call
// in its place when that call has its name.
//
// Settles as the scanner asks:
// - `grow` only ever adds: a call's deltas are never taken back.
// - `close` ends every input of the region, read or not; the last delta makes
//   the JSON the call's whole arguments where what was streamed leads there.
import type { CallInputEvent } from '../shared/model.js';
import type { ParsedCall } from '../shared/tool-protocol.js';
import { JsonPrefix } from './json-prefix.js';
import type { CallFormat } from './types.js';

interface Streamed {
  readonly index: number;
  readonly name: string;
  readonly json: JsonPrefix;
  sent: string;
}

export class CallInputs {
  #events: CallInputEvent[] = [];
  /** The inputs of the call region still open, in its order. */
  #open: Streamed[] = [];
  #next = 0;

  constructor(private readonly format: Pick<CallFormat, 'inputs'>) {}

  /** The call region's text so far, from its opener. */
  grow(callText: string): void {
    const seen = this.format.inputs?.(callText) ?? [];
    for (const [i, input] of seen.entries()) {
      let streamed = this.#open[i];
      if (!streamed) {
        streamed = { index: this.#next++, name: input.name, json: new JsonPrefix(), sent: '' };
        this.#open.push(streamed);
        this.#events.push({ type: 'start', index: streamed.index, name: input.name });
      }
      this.#send(streamed, streamed.json.read(input.args));
    }
  }

  /** The region ended: `calls` were read from it, the first at `first` in the reply's calls. */
  close(calls: readonly ParsedCall[], first: number): void {
    for (const [i, streamed] of this.#open.entries()) {
      const call = calls[i];
      const tied = call !== undefined && call.name === streamed.name;
      if (tied && call.arguments !== undefined) this.#send(streamed, JSON.stringify(call.arguments));
      this.#events.push({ type: 'end', index: streamed.index, call: tied ? first + i : null });
    }
    this.#open = [];
  }

  /** The events since the last take. */
  take(): CallInputEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }

  #send(streamed: Streamed, json: string): void {
    if (json.length <= streamed.sent.length || !json.startsWith(streamed.sent)) return;
    this.#events.push({ type: 'delta', index: streamed.index, delta: json.slice(streamed.sent.length) });
    streamed.sent = json;
  }
}
