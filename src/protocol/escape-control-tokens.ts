// The one rule: the template writes markup, nothing else does. Every text the
// template does not write is data, whatever door it came through: a user
// message (the task a chat tool sends into its chat too), a tool's name,
// description and schema (the app's own, an MCP server's, a WebMCP page's),
// a result. A fetched page, a server's description or a page's tool may hold
// any family's turn boundary or call opener (`<|im_end|>`, `<end_of_turn>`,
// `[/TOOL_RESULTS][TOOL_CALLS]`, `<｜User｜>`, `<tool_response|>`…). Only the
// app's own system prompt is trusted as written, and the model's own turns go
// back as it wrote them (its calls are markup it was asked to write).
//
// A turn is the model's own only if this engine wrote it. A turn that only
// looks like one (another model's reply in an AI SDK history, an assistant
// message the app gives `agent.generate`, an imported chat's) comes as a
// ForeignTurn, and so does the system prompt of an imported chat
// (`foreignSystem`): their text is data like a user's, and the turn is
// written here, in the family's call format, from its escaped text and calls.
//
// The page stores every text as it was given; the worker escapes it here,
// where each prompt is rendered (render-request.ts for WebLLM and the fake,
// worker/template-prompt.ts for wllama), so every path into a prompt is
// covered, whatever wrote the text (this version, an older one, an imported
// chat file), the stored chat and its exports keep the original, and the
// token list stays out of the page.
import type { ForeignTurn, ModelMessage, ModelRequest } from '../shared/model.js';
import type { EncodedToolResult, ModelFamily, ToolDeclaration } from '../shared/tool-protocol.js';
import type { JsonObject } from '../shared/json.js';
import { CONTROL_TOKEN_START } from './control-tokens.js';
import { turnText } from './write-calls.js';

/** A message as the templates take it: every assistant turn is a raw one. */
export type RenderMessage = Exclude<ModelMessage, ForeignTurn>;

type Renderable = Pick<ModelRequest, 'messages' | 'tools' | 'system' | 'foreignSystem'>;

/**
 * What the model may read of `request`: every text but the app's system
 * prompt and the model's own turns with its control tokens broken, and each
 * foreign turn written in `family`'s format from its broken text and calls.
 * Results are JSON text and get a JSON escape (`escapeJson`); the rest is
 * prose or a string in a declaration (or a call's arguments) and gets a word
 * joiner (`breakText`).
 */
export function asData<R extends Renderable>(request: R, family: ModelFamily): Omit<R, 'messages'> & { messages: RenderMessage[] } {
  const { system, foreignSystem } = request;
  return {
    ...request,
    ...(system !== undefined && foreignSystem ? { system: breakText(system) } : {}),
    messages: request.messages.map((m) => escapedMessage(m, family)),
    tools: escapedTools(request.tools),
  };
}

/**
 * Each message as the model may read it, made once per family: the
 * generation port hands the worker a chat's earlier messages as the same
 * objects hop after hop (rpc/request-wire.ts), and a long chat's are many.
 */
const escapedMessages = new WeakMap<ModelMessage, { family: ModelFamily; message: RenderMessage }>();

function escapedMessage(m: ModelMessage, family: ModelFamily): RenderMessage {
  if (m.role === 'assistant' && 'raw' in m) return m;
  const known = escapedMessages.get(m);
  if (known?.family === family) return known.message;
  const message: RenderMessage =
    m.role === 'user' ? { role: 'user', content: breakText(m.content) }
    : m.role === 'tool' ? { role: 'tool', results: m.results.map(escapeResult) }
    : { role: 'assistant', raw: foreignTurnText(m, family) };
  escapedMessages.set(m, { family, message });
  return message;
}

/**
 * Each tool list as the model may read it, made once: a chat declares the
 * same list every hop, and the generation port hands the worker the same
 * list object again (an app's may hold dozens of schemas).
 */
const escapedLists = new WeakMap<readonly ToolDeclaration[], readonly ToolDeclaration[]>();

function escapedTools(tools: readonly ToolDeclaration[]): readonly ToolDeclaration[] {
  let escaped = escapedLists.get(tools);
  if (!escaped) escapedLists.set(tools, (escaped = Object.freeze(tools.map(escapeDeclaration))));
  return escaped;
}

/** A turn the model did not write, as its family writes one, its text and every string of its calls broken. */
function foreignTurnText(turn: ForeignTurn, family: ModelFamily): string {
  const calls = turn.calls.map((c) => ({ name: breakText(c.name), arguments: breakStrings(c.arguments) as JsonObject }));
  return turnText(breakText(turn.text), calls, family);
}

/**
 * Prose (a user message) and the strings of a declaration: U+2060 WORD
 * JOINER after the first character of every control token. The tokenizers
 * match control tokens on the raw text (llama.cpp, and the Hugging Face
 * tokenizers WebLLM runs, before any normalizer; none of the supported
 * normalizers, NFC or NFKC, drops U+2060), so `<⁠|im_end|>` is the plain
 * characters it shows and never the token; a joiner is invisible, breaks no
 * line and adds one or two tokens where a token was spelled, so the model
 * still reads the text. A JSON escape would not do here: in prose the model
 * would read `\u003c` literally, and a template that writes tools with
 * `tojson` would escape the backslash again.
 */
export function breakText(text: string): string {
  return text.replace(CONTROL_TOKEN_START, (c) => `${c}\u2060`);
}

/**
 * JSON text (a result): every control token starts with `<` or `[`, and
 * inside a JSON string any character may be written as a \u escape, which
 * JSON.parse reads back as the same character: so the first character of
 * every token is escaped, and the text the model reads spells none while the
 * value is unchanged.
 */
function escapeJson(text: string): string {
  return text.replace(CONTROL_TOKEN_START, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// Both are deterministic, so a stored chat renders the same prompt on every
// request and after a reload (the KV cache holds), and idempotent (the
// character after a token's first is no longer the token's), so results an
// older version stored escaped render as they did.

function escapeResult(result: EncodedToolResult): EncodedToolResult {
  return { name: breakText(result.name), content: escapeJson(result.content) };
}

function escapeDeclaration(tool: ToolDeclaration): ToolDeclaration {
  return { name: breakText(tool.name), description: breakText(tool.description), parameters: breakStrings(tool.parameters) as ToolDeclaration['parameters'] };
}

/** Every string of a JSON value, keys too (a property name is text the model reads). */
function breakStrings(value: unknown): unknown {
  if (typeof value === 'string') return breakText(value);
  if (Array.isArray(value)) return value.map(breakStrings);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties: a `__proto__` key stays a key.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [breakText(k), breakStrings(v)]));
}
