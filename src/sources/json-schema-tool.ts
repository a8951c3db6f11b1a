// Tool sources, src/sources/: tools that come from elsewhere, each a
// ToolSource a chat takes beside the app's own tools. An MCP server's
// (mcp/); the page's WebMCP tools (webmcp/, which also offers a chat's own
// tools to the browser's agent: registerWebMcpTools); another chat
// (chat-tool/: chat.asTool). MCP's and WebMCP's tools come as JSON Schema
// and become managed tools through this module (with json-schema-input.ts
// and listed-tools.ts), one builder for both. The room imports calls/
// (registerWebMcpTools runs the browser agent's calls through the call
// pipeline) and the layers below it; never run/, chat/ or agent/: a chat
// tool reaches its chat through ToolChat (chat-tool/chat-tool-call.ts),
// which Chat implements.
//
// A source's tool from its JSON Schema: declared with the schema as the
// source gave it, its arguments checked against it (with the coercions every
// managed tool gets) before the call, its traits read from the source's
// hints, and the app's options for the source applied.
import { jsonProblem } from '../tools/encode-result.js';
import type { JsonSchema } from '../shared/json.js';
import type { ErrorPolicy, ManagedTool, ToolContext } from '../tools/types.js';
import { jsonSchemaInput } from '../tools/json-schema-input.js';

/** How long a call may take unless the app says otherwise. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** The app's options for a source's tools (mcpTools', webMcpTools'). */
export interface SourceToolOptions<Info> {
  needsApproval?: boolean | ((tool: Info) => boolean);
  onError?: ErrorPolicy;
  timeoutMs?: number;
}

export interface Traits {
  readOnly: boolean;
  destructive: boolean;
}

/** What a tool's hints say: it may change things, destructively, unless it says it only reads (or, in MCP, that its changes are not destructive). */
export function traitsOf(hints: { readOnlyHint?: boolean; destructiveHint?: boolean } | undefined): Traits {
  const readOnly = hints?.readOnlyHint === true;
  return { readOnly, destructive: !readOnly && hints?.destructiveHint !== false };
}

export interface JsonSchemaToolSpec<Info> {
  /** The tool's name in the chat (ListedTools gives it). */
  name: string;
  description: string;
  /** The input's JSON Schema, as the source gave it. */
  schema: Record<string, unknown>;
  /** The tool as the source describes it: what a `needsApproval` function is asked. */
  info: Info;
  traits: Traits;
  options: SourceToolOptions<Info>;
  /** A call, given the tool's timeout (a source's own request may need it). */
  call(input: Record<string, unknown>, ctx: ToolContext, timeoutMs: number): Promise<unknown>;
}

export function jsonSchemaTool<Info>(spec: JsonSchemaToolSpec<Info>): ManagedTool<Record<string, unknown>, unknown> {
  const { schema, options, traits } = spec;
  // A call needs approval unless the tool says it changes nothing for the worse (or the app says otherwise).
  const { needsApproval = traits.destructive, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const check = jsonSchemaInput(schema);
  return Object.freeze({
    kind: 'managed',
    name: spec.name,
    description: spec.description,
    input: check.input,
    ...(check.warnings.length ? { warnings: check.warnings } : {}),
    parameters: parametersOf(schema),
    onError: options.onError ?? 'inform',
    needsApproval: typeof needsApproval === 'function' ? needsApproval(spec.info) : needsApproval,
    timeoutMs,
    ...traits,
    run: (input: Record<string, unknown>, ctx: ToolContext) => spec.call(input, ctx, timeoutMs),
  });
}

/** The schema as the model is shown it: an object schema, without the `$schema` line. */
function parametersOf(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _, ...rest } = schema;
  // From the wire or a browser's copy, so JSON already; kept honest in case a source hands over more.
  if (jsonProblem(rest)) return { type: 'object' };
  return { ...rest, type: 'object' } as JsonSchema;
}
