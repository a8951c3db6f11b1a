// The tools of one chat, by name. Names are looked up with Object.hasOwn so a
// model that writes `constructor` or `__proto__` finds nothing. A source's
// tools (an MCP server's) join the chat's own; one whose name another tool
// of the chat has too is offered as `namespace_name`.
import { DuplicateToolError, InvalidOptionsError, UnknownToolError } from '../errors/index.js';
import type { ToolChoice, ToolDeclaration } from '../shared/tool-protocol.js';
import { namespacedName } from '../tools/tool-names.js';
import type { ManagedTool, Tool, ToolEntry, ToolSource } from '../tools/types.js';

export class ToolSet {
  private readonly byName: Record<string, Tool> = Object.create(null);
  /** Never changed once made: the generation port sends a list once and names it after (rpc/request-wire.ts). */
  readonly declarations: readonly ToolDeclaration[];
  /** Whether any tool runs here; without one, every call goes to the page. */
  readonly hasManaged: boolean;
  /** What the set was made of: build it again from these when a source changes. */
  readonly entries: readonly ToolEntry[];
  readonly sources: readonly ToolSource[];
  /** The app's own tools (not a source's): what a stored chat asks for on open. */
  readonly own: ReadonlyArray<{ name: string; kind: Tool['kind'] }>;

  constructor(entries: readonly ToolEntry[] = []) {
    if (!Array.isArray(entries)) throw new InvalidOptionsError('tools', 'must be an array of tool() or rawTool() results');
    // In the order given; a source's tools where the source is.
    const listed: Array<{ tool: Tool; source?: ToolSource }> = [];
    entries.forEach((t, i) => {
      if (t?.kind === 'source') for (const tool of t.tools) listed.push({ tool, source: t });
      else if (t && (t.kind === 'managed' || t.kind === 'raw')) listed.push({ tool: t });
      else throw new InvalidOptionsError(`tools[${i}]`, 'must be made with tool(), rawTool(), mcpTools() or webMcpTools()');
    });
    const count = new Map<string, number>();
    for (const { tool } of listed) count.set(tool.name, (count.get(tool.name) ?? 0) + 1);
    for (const { tool, source } of listed) {
      // The app's own tools keep their names: a clash between two of them is the app's mistake.
      const t = source && count.get(tool.name)! > 1 ? Object.freeze({ ...tool, name: namespacedName(source.namespace, tool.name) }) : tool;
      if (Object.hasOwn(this.byName, t.name)) throw new DuplicateToolError(t.name);
      this.byName[t.name] = t;
    }
    const tools = Object.values(this.byName);
    this.declarations = Object.freeze(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })));
    this.hasManaged = tools.some((t) => t.kind === 'managed');
    this.entries = entries;
    this.sources = entries.filter((t): t is ToolSource => t.kind === 'source');
    this.own = listed.filter((l) => !l.source).map(({ tool }) => ({ name: tool.name, kind: tool.kind }));
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
