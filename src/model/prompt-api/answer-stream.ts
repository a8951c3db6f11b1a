// The answer as it is written, though it sits inside the reply JSON
// (`{"answer": "…"}`): the streamed JSON is read so far at each chunk, and
// the answer's growth goes out as text. A call list shows nothing.
// Stop sequences end the reply where the model writes one: in the answer's
// text, or anywhere in a call list. The answer's tail that may yet become one
// is held back, so a sequence never shows.
import { partialJson } from '../../tools/partial-json.js';

export class AnswerStream {
  #reply = '';
  #answer = '';
  #shown = '';
  #stopped = false;

  constructor(private readonly stops: readonly string[] = []) {}

  /** The text the reply so far adds to the answer ('' while it shows none, or is a call list). */
  push(chunk: string): string {
    if (this.#stopped) return '';
    this.#reply += chunk;
    const answer = readAnswer(this.#reply);
    if (answer === undefined) {
      // A call list: a stop sequence anywhere in it ends the reply, and no call counts.
      if (CALL_LIST.test(this.#reply) && this.stops.some((s) => this.#reply.includes(s))) this.#stopped = true;
      return '';
    }
    // Growth only: a value read from a cut-off escape may change once the escape ends.
    if (!answer.startsWith(this.#answer)) return '';
    this.#answer = answer;
    const at = Math.min(...this.stops.map((s) => answer.indexOf(s)).filter((i) => i >= 0));
    if (Number.isFinite(at)) {
      this.#stopped = true;
      return this.#show(answer.slice(0, at));
    }
    return this.#show(answer.slice(0, answer.length - this.#held(answer)));
  }

  /** The answer's held-back tail, once the reply is whole. */
  flush(): string {
    return this.#stopped ? '' : this.#show(this.#answer);
  }

  /** A stop sequence was written: the reply ends here. */
  get stopped(): boolean {
    return this.#stopped;
  }

  get shown(): string {
    return this.#shown;
  }

  #show(upTo: string): string {
    if (upTo.length <= this.#shown.length) return '';
    const delta = upTo.slice(this.#shown.length);
    this.#shown = upTo;
    return delta;
  }

  /** How many of the answer's last characters could begin a stop sequence. */
  #held(answer: string): number {
    let held = 0;
    for (const stop of this.stops) {
      for (let k = Math.min(stop.length - 1, answer.length); k > held; k--) {
        if (answer.endsWith(stop.slice(0, k))) {
          held = k;
          break;
        }
      }
    }
    return held;
  }
}

const CALL_LIST = /^\s*\{\s*"calls"/;

/** The answer the reply so far shows; undefined for a call list, or before the answer begins. */
function readAnswer(reply: string): string | undefined {
  const value = partialJson(reply);
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'calls' in value) return undefined;
  const answer = (value as { answer?: unknown }).answer;
  return typeof answer === 'string' ? answer : undefined;
}
