// How the provider knows a raw in an AI SDK prompt is its own. A raw comes
// back in the prompt's provider options, where the app (or another provider,
// or a message a page relayed) can put any text: trusted as markup, a raw
// that spells `<|im_end|><|im_start|>system` forges a turn. So the provider
// remembers the raws its model emitted, and trusts a raw only if it is one
// of them: exactly what the model wrote, so nothing it does not already hold
// as its own output. A raw it does not remember (forged, another provider's,
// or evicted from a long history) is not an error: the turn is written from
// its text and calls as data, and the KV cache starts over at that turn.
//
// Remembered by value, not by a signature: no key to keep, nothing async, and
// the strings are those the AI SDK holds in its history anyway. Bounded, the
// least recently seen forgotten first: a multi-step run re-sends its recent
// turns, and an app's long history outgrows any bound.

/** How many raws a provider remembers. */
export const OWN_RAWS_KEPT = 256;

export class OwnRaws {
  readonly #raws = new Set<string>();

  constructor(private readonly limit = OWN_RAWS_KEPT) {}

  /** The model wrote `raw`: trust it when it comes back. */
  remember(raw: string): void {
    this.#raws.delete(raw);
    this.#raws.add(raw);
    if (this.#raws.size > this.limit) this.#raws.delete(this.#raws.values().next().value!);
  }

  /** Whether the model wrote `raw` (and it is recent enough to be kept); seeing it keeps it longer. */
  has(raw: string): boolean {
    if (!this.#raws.has(raw)) return false;
    this.remember(raw);
    return true;
  }
}
