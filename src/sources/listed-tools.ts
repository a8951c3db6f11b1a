// A source's tools as last listed, and the chats that listen for the next
// list: an MCP server's and the page's WebMCP tools alike.
import { toolNames } from '../tools/tool-names.js';
import type { Tool } from '../tools/types.js';

export class ListedTools {
  #tools: Tool[] = [];
  readonly #listeners = new Set<() => void>();

  get tools(): readonly Tool[] {
    return this.#tools;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Offer `listed`, each under a name a model can write, unique among them
   * (a source's names may hold `.` or `/`, and run to 128 characters), then
   * tell the listeners.
   */
  set<T>(listed: readonly T[], nameOf: (item: T) => string, toolOf: (item: T, name: string) => Tool): void {
    const names = toolNames(listed.map(nameOf));
    this.#tools = listed.map((item, i) => toolOf(item, names[i]!));
    for (const listener of [...this.#listeners]) listener();
  }
}
