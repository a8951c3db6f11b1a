// The person's own GGUF models: a URL given as the page's ?gguf= parameter
// (so a link can open the demo on any GGUF a browser may fetch), files picked
// from the disk this visit, and a URL chosen on an earlier visit. The picker
// lists them after the curated CPU models.
import { ownUrlChoice, type GgufChoice } from './models.js';

export class OwnGgufs {
  #choices: GgufChoice[] = [];

  /** The ?gguf= parameter of `search` (location.search), if any. A bad URL is left out: the picker shows what can load. */
  constructor(search: string) {
    const url = new URLSearchParams(search).get('gguf');
    if (url) {
      try {
        this.add(ownUrlChoice(url));
      } catch {
        // Not a URL even relative to the page: nothing to list.
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
