// The person's own GGUF models: a URL given as the page's ?gguf= parameter
// (so a link can open the demo on any GGUF a browser may fetch; &ctx= sets
// its context size, which tabagent otherwise caps at 4096), files picked
// from the disk this visit, and a URL chosen on an earlier visit. The picker
// lists them after the curated CPU models.
import { ownUrlChoice, type GgufChoice } from './models.js';

export class OwnGgufs {
  #choices: GgufChoice[] = [];

  /** The ?gguf= (and &ctx=) parameters of `search` (location.search), if any. A bad URL is left out, a bad size ignored: the picker shows what can load. */
  constructor(search: string) {
    const params = new URLSearchParams(search);
    const url = params.get('gguf');
    const ctx = Number(params.get('ctx'));
    if (url) {
      try {
        this.add(ownUrlChoice(url, Number.isInteger(ctx) && ctx > 0 ? ctx : undefined));
      } catch {
        // Not an http(s) URL, even relative to the page: nothing to list.
      }
    }
  }

  get choices(): readonly GgufChoice[] {
    return this.#choices;
  }

  /** Listed from now on (once: the same file or URL again replaces the earlier row). */
  add(choice: GgufChoice): void {
    this.#choices = [...this.#choices.filter((c) => c.key !== choice.key), choice];
  }
}
