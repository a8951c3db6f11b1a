// The answer as it is written, though it sits inside the reply JSON
// (`{"answer": "…"}`): the streamed JSON is read so far at each chunk, and
// the answer's growth goes out as text. A call list shows nothing.
import { partialJson } from '../../tools/partial-json.js';

export class AnswerStream {
  #reply = '';
  #shown = '';

  /** The text the reply so far adds to the answer ('' while it shows none, or is a call list). */
  push(chunk: string): string {
    this.#reply += chunk;
    const value = partialJson(this.#reply);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return '';
    const answer = (value as { answer?: unknown }).answer;
    // Growth only: a value read from a cut-off escape may change once the escape ends.
    if (typeof answer !== 'string' || !answer.startsWith(this.#shown) || 'calls' in value) return '';
    const delta = answer.slice(this.#shown.length);
    this.#shown = answer;
    return delta;
  }

  get reply(): string {
    return this.#reply;
  }

  get shown(): string {
    return this.#shown;
  }
}
