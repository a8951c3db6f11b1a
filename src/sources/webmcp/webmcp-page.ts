// The page's WebMCP tools as a source of tools: listed with getTools(),
// listed again on every `toolchange`, each one a managed tool built from its
// own JSON Schema as every source's tool is (sources/json-schema-tool.ts), whose
// calls go through executeTool(). Loaded on demand by webmcp-tools.ts.
//
// How a call settles:
// - the tool's result, read by webmcp-result.ts;
// - a rejection while the tool is still registered: the tool failed
//   (WebMcpToolError 'tool', with the browser's message);
// - a rejection and the tool is no longer listed: WebMcpToolError 'gone';
// - an abort or the tool's timeout: executeTool's signal aborts.
import { WebMcpToolError, WebMcpUnavailableError } from '../../errors/index.js';
import { messageOf } from '../../errors/message-of.js';
import { checkCallOptions } from '../../tools/define-tool.js';
import { toToolName } from '../../tools/tool-names.js';
import type { ManagedTool, Tool, ToolContext } from '../../tools/types.js';
import { jsonSchemaTool, traitsOf } from '../json-schema-tool.js';
import { ListedTools } from '../listed-tools.js';
import { consumerContext, type ConsumerContext, type RegisteredWebMcpTool } from './webmcp-context.js';
import { ownRegistrations } from './webmcp-own.js';
import { readWebMcpResult } from './webmcp-result.js';
import type { WebMcpToolInfo, WebMcpTools, WebMcpToolsOptions } from './webmcp-types.js';

/** `webMcpTools(options)`: the options checked, WebMCP's consumer API found, the page's tools listed. */
export async function pageTools(options: WebMcpToolsOptions): Promise<WebMcpTools> {
  checkCallOptions('', options);
  const source = new PageTools(consumerContext(), options);
  try {
    await source.refresh();
    return source;
  } catch (cause) {
    // Nobody holds a source that failed: it stops listening to the page.
    source.close();
    // The browser refused the listing (a Permissions Policy without "tools", say).
    throw new WebMcpUnavailableError({ detail: `getTools() failed: ${messageOf(cause)}`, cause });
  }
}

class PageTools implements WebMcpTools {
  readonly kind = 'source';
  readonly namespace: string;
  readonly #offered = new ListedTools();
  /** The tools as last listed, by their WebMCP name: executeTool wants the listed object. */
  #listed = new Map<string, RegisteredWebMcpTool>();
  readonly #context: ConsumerContext;
  readonly #options: WebMcpToolsOptions;
  #closed = false;
  /** One listing at a time, and at most one waiting after it. */
  #listing: Promise<void> | undefined;
  #next: Promise<void> | undefined;
  readonly #onChange = () => void this.refresh().catch(() => undefined);

  constructor(context: ConsumerContext, options: WebMcpToolsOptions) {
    this.#context = context;
    this.#options = options;
    this.namespace = toToolName(options.namespace ?? 'page');
    context.addEventListener('toolchange', this.#onChange);
  }

  get tools(): readonly Tool[] {
    return this.#offered.tools;
  }

  subscribe(listener: () => void): () => void {
    return this.#offered.subscribe(listener);
  }

  refresh(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    // A change during a listing may not be in it: one more listing after it, shared by all who ask meanwhile.
    if (this.#listing) {
      this.#next ??= this.#listing
        .catch(() => undefined)
        .then(() => {
          this.#next = undefined;
          return this.refresh();
        });
      return this.#next;
    }
    this.#listing = this.#list().finally(() => (this.#listing = undefined));
    return this.#listing;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#context.removeEventListener('toolchange', this.#onChange);
    this.#setTools([]);
  }

  async #list(): Promise<void> {
    const listed = await this.#context.getTools();
    if (this.#closed) return;
    this.#setTools(listed.filter((t) => !ownRegistrations.has(t.name)));
  }

  #setTools(listed: readonly RegisteredWebMcpTool[]): void {
    const { filter } = this.#options;
    this.#listed = new Map(listed.map((t) => [t.name, t]));
    const offered = listed.map((registered) => ({ registered, info: infoOf(registered) })).filter(({ info }) => !filter || filter(info));
    this.#offered.set(offered, ({ info }) => info.name, ({ registered, info }, name) => this.#tool(registered, info, name));
  }

  #tool(registered: RegisteredWebMcpTool, info: WebMcpToolInfo, name: string): ManagedTool<Record<string, unknown>, unknown> {
    const { toModel } = this.#options;
    const call = async (input: Record<string, unknown>, ctx: ToolContext): Promise<unknown> => {
      // The listed object of now: a tool registered again since is another registration.
      const target = this.#listed.get(info.name) ?? registered;
      let text: string | null;
      try {
        text = await this.#context.executeTool(target, JSON.stringify(input), { signal: ctx.signal });
      } catch (error) {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        throw await this.#failure(info.name, error);
      }
      if (toModel) return toModel(text, info);
      const read = readWebMcpResult(text);
      if (!read.ok) throw new WebMcpToolError({ toolName: info.name, failure: 'tool', detail: read.detail });
      return read.value;
    };
    // WebMCP's hints say only whether a tool reads: one that does not may change anything.
    const traits = traitsOf({ readOnlyHint: info.annotations?.readOnlyHint });
    return jsonSchemaTool({ name, description: info.description || info.title || '', schema: schemaOf(registered.inputSchema), info, traits, options: this.#options, call });
  }

  /** A rejected call: the tool failed, or it is no longer there (asked of the page, not read from the browser's wording). */
  async #failure(toolName: string, error: unknown): Promise<WebMcpToolError> {
    const detail = messageOf(error);
    const still = await this.#context.getTools().then(
      (tools) => tools.some((t) => t.name === toolName),
      () => true,
    );
    return new WebMcpToolError({ toolName, failure: still ? 'tool' : 'gone', detail, cause: error });
  }
}

function infoOf(t: RegisteredWebMcpTool): WebMcpToolInfo {
  return {
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.description ?? '',
    ...(t.annotations ? { annotations: { ...t.annotations } } : {}),
    ...(typeof t.origin === 'string' ? { origin: t.origin } : {}),
  };
}

/** The tool's JSON Schema: an object, or the JSON text older Chrome gives; none means any object (WebMCP's default). */
function schemaOf(inputSchema: RegisteredWebMcpTool['inputSchema']): Record<string, unknown> {
  let schema: unknown = inputSchema;
  if (typeof schema === 'string') {
    try {
      schema = JSON.parse(schema);
    } catch {
      schema = undefined;
    }
  }
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as Record<string, unknown>) : { type: 'object' };
}
