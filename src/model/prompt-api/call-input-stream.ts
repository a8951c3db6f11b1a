// The calls of a reply told as they are written (CallInputEvent), from the
// reply JSON's call list (`{"calls": [{"name": …, "arguments": {…}}, …]}`):
// the call objects are Hermes' JSON, followed by the same reader the worker's
// Hermes format uses, and turned into events by the same CallInputs.
import { CallInputs } from '../../protocol/call-inputs.js';
import { jsonCallInputs } from '../../protocol/formats/json-call-inputs.js';
import type { CallInputEvent } from '../../shared/model.js';
import type { ParsedCall } from '../../shared/tool-protocol.js';

const CALL_LIST = /^\s*\{\s*"calls"\s*:\s*\[/;

export class CallInputStream {
  #inputs: CallInputs | undefined;

  /** The events the reply so far adds (none unless it is a call list). */
  grow(reply: string): CallInputEvent[] {
    if (!this.#inputs) {
      const list = CALL_LIST.exec(reply);
      if (!list) return [];
      const from = list[0].length;
      this.#inputs = new CallInputs({ inputs: (text) => jsonCallInputs(text, from) });
    }
    this.#inputs.grow(reply);
    return this.#inputs.take();
  }

  /** The reply ended with `calls` read from it (none when it was cut): every input told ends. */
  close(calls: readonly ParsedCall[]): CallInputEvent[] {
    if (!this.#inputs) return [];
    this.#inputs.close(calls, 0);
    return this.#inputs.take();
  }
}
