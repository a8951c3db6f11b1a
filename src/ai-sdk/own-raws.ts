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
// turns, and an app's long history outgrows any bound. Each with the model
// that wrote it (`modelWriter`): one provider makes models of many ids and
// loads them in turn, and another model's output is data to this one (a
// control token it wrote as plain text would be a real one here). A server
// model's output is never remembered: it wrote no markup (`foreign`).

/** How many raws a provider remembers. */
export const OWN_RAWS_KEPT = 256;

export class OwnRaws {
  readonly #raws = new Set<string>();

  constructor(private readonly limit = OWN_RAWS_KEPT) {}

  /** `writer` (a model, as `modelWriter` names it) wrote `raw`: trust it when it comes back to the same model. */
  remember(raw: string, writer: string): void {
    const key = `${writer}\n${raw}`;
    this.#raws.delete(key);
    this.#raws.add(key);
    if (this.#raws.size > this.limit) this.#raws.delete(this.#raws.values().next().value!);
  }

  /** Whether `writer` wrote `raw` (and it is recent enough to be kept); seeing it keeps it longer. */
  has(raw: string, writer: string): boolean {
    if (!this.#raws.has(`${writer}\n${raw}`)) return false;
    this.remember(raw, writer);
    return true;
  }
}
