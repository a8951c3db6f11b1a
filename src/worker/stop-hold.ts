// Stop strings as the page sees them stream. The engines end the reply at a
// stop string and leave it out of their text, but WebLLM streams what it
// decoded before it knew: a stop string split across tokens would show its
// first half. So the worker holds back the longest end of the output that
// could still begin a stop string, and takes the rest from the engine's
// final text, which is what the engine kept.

export class StopHold {
  #text = '';
  #released = 0;

  constructor(private readonly stops: readonly string[]) {}

  /** More output; returns what can no longer be the start of a stop string. */
  push(delta: string): string {
    this.#text += delta;
    const end = this.#text.length - heldLength(this.#text, this.#released, this.stops);
    const out = this.#text.slice(this.#released, end);
    this.#released = end;
    return out;
  }

  /** The engine's final text: what it kept beyond what was released (nothing, when it cut a stop string there). */
  end(final: string): string {
    const out = final.length > this.#released ? final.slice(this.#released) : '';
    this.#released = Math.max(this.#released, final.length);
    return out;
  }
}

/** Characters at the end of `text`, after `from`, that are a proper prefix of a stop string. */
function heldLength(text: string, from: number, stops: readonly string[]): number {
  let held = 0;
  for (const stop of stops) {
    for (let k = Math.min(stop.length - 1, text.length - from); k > held; k--) {
      if (text.endsWith(stop.slice(0, k))) {
        held = k;
        break;
      }
    }
  }
  return held;
}
