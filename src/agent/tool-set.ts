// The tools of one chat, by name. Names are looked up with Object.hasOwn so a
// model that writes `constructor` or `__proto__` finds nothing.
import { DuplicateToolError, InvalidOptionsError, UnknownToolError } from '../errors/index.js';
import type { ToolChoice, ToolDeclaration } from '../shared/tool-protocol.js';
import type { ManagedTool, Tool } from '../tools/types.js';

export class ToolSet {
  private readonly byName: Record<string, Tool> = Object.create(null);
  readonly declarations: ToolDeclaration[];
  /** Whether any tool runs here; without one, every call goes to the page. */
  readonly hasManaged: boolean;

  constructor(tools: readonly Tool[] = []) {
    if (!Array.isArray(tools)) throw new InvalidOptionsError('tools', 'must be an array of tool() or rawTool() results');
    tools.forEach((t, i) => {
      if (!t || (t.kind !== 'managed' && t.kind !== 'raw')) throw new InvalidOptionsError(`tools[${i}]`, 'must be made with tool() or rawTool()');
      if (Object.hasOwn(this.byName, t.name)) throw new DuplicateToolError(t.name);
      this.byName[t.name] = t;
    });
    this.declarations = tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
    this.hasManaged = tools.some((t) => t.kind === 'managed');
  }

  /** These tools only (a step's active tools), in this set's order. */
  subset(names: readonly string[]): ToolSet {
    const keep = new Set(names);
    return keep.size === this.names.length ? this : new ToolSet(this.names.filter((n) => keep.has(n)).map((n) => this.byName[n]!));
  }

  get names(): string[] {
    return Object.keys(this.byName);
  }

  get(name: string): Tool | undefined {
    return Object.hasOwn(this.byName, name) ? this.byName[name] : undefined;
  }

  managed(name: string): ManagedTool | undefined {
    const t = this.get(name);
    return t?.kind === 'managed' ? t : undefined;
  }

  /** Throws unless the choice can be honoured by these tools. */
  checkChoice(choice: ToolChoice, option: string): void {
    if (choice === 'auto' || choice === 'none') return;
    if (choice === 'required') {
      if (this.declarations.length === 0) throw new InvalidOptionsError(option, "'required' needs at least one tool");
      return;
    }
    if (typeof choice !== 'object' || choice === null || typeof choice.name !== 'string') {
      throw new InvalidOptionsError(option, `must be 'auto', 'required', 'none' or { name }, not ${JSON.stringify(choice)}`);
    }
    if (!this.get(choice.name)) throw new UnknownToolError(choice.name, this.names);
  }
}
