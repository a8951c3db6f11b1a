/**
 * The tools tabagent registered itself (registerWebMcpTools): a chat does
 * not take them back as page tools. Each registration claims its names with
 * a handle of its own and lets go of its own claims only, so a second
 * registration refused for a name the first holds takes nothing from the first.
 */
class OwnRegistrations {
  readonly #claims = new Map<string, Set<object>>();

  add(name: string, handle: object): void {
    const claims = this.#claims.get(name) ?? new Set();
    claims.add(handle);
    this.#claims.set(name, claims);
  }

  delete(name: string, handle: object): void {
    const claims = this.#claims.get(name);
    claims?.delete(handle);
    if (claims?.size === 0) this.#claims.delete(name);
  }

  has(name: string): boolean {
    return this.#claims.has(name);
  }
}

export const ownRegistrations = new OwnRegistrations();
