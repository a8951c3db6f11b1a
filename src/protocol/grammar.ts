// Grammars for WebLLM's constrained decoding (xgrammar structural tags), built
// from the same CallFormat the scanner reads, so a call can start exactly
// where the scanner looks for one and nowhere else. Shapes checked against
// @mlc-ai/web-xgrammar 0.1.27, the version WebLLM 0.2.86 bundles.
import type { JsonSchema } from '../shared/json.js';
import { grammarSchema } from './grammar-schema.js';
import { THINK_TAGS, type CallFormat, type Reasoning, type ThinkMarkers } from './types.js';
import type { ResponseFormat, Tag, TagFormat, ToolChoice, ToolDeclaration } from '../shared/tool-protocol.js';

const SPACE: TagFormat = { type: 'regex', pattern: '\\s*' };

/**
 * The constraint for one request; undefined when there is nothing to constrain.
 * - `auto`: text, calls, or both, where the format allows calls.
 * - `required`: the reply opens with one or more calls; `{ name }`: exactly one call to that tool.
 * - `none`: any text that never contains the opener.
 * A reasoning model writes its think block (with the family's markers) first, whatever the choice.
 */
export function buildConstraint(format: CallFormat, declared: readonly ToolDeclaration[], choice: ToolChoice, reasoning: Reasoning, think: ThinkMarkers = THINK_TAGS): ResponseFormat | undefined {
  if (choice === 'none') return { type: 'grammar', grammar: excludingGrammar(format.opener) };
  if (declared.length === 0) return undefined;
  // A server's schema may hold what the engine cannot compile (grammar-schema.ts).
  const tools = declared.map((t) => ({ ...t, parameters: grammarSchema(t.parameters) }));
  const body = choice === 'auto' ? free(format, tools) : choice === 'required' ? calls(format, tools) : one(format, named(tools, choice.name));
  return afterThinking(body, reasoning, think);
}

/**
 * The constraint for structured output: one JSON value that fits `schema`,
 * after the think block when the model reasons. xgrammar's `json_schema`
 * allows any whitespace between the value's tokens but none before or after
 * it, so the reply is exactly the value (SPACE covers the gap after `</think>`).
 */
export function buildOutputConstraint(schema: JsonSchema, reasoning: Reasoning, think: ThinkMarkers = THINK_TAGS): ResponseFormat {
  return afterThinking({ type: 'json_schema', json_schema: grammarSchema(schema) }, reasoning, think);
}

/** A reasoning model writes its think block first (or the rest of the one the prompt opened), whatever the body. */
function afterThinking(body: TagFormat, reasoning: Reasoning, markers: ThinkMarkers): ResponseFormat {
  const think: Tag | null = reasoning === 'none' ? null : { type: 'tag', begin: reasoning === 'think' ? markers.open : '', content: { type: 'any_text' }, end: markers.close };
  const format = think ? { type: 'sequence' as const, elements: [think, SPACE, body] } : body;
  return { type: 'structural_tag', structural_tag: { type: 'structural_tag', format } };
}

/** Text and calls, calls only where the format lets them start. */
function free(format: CallFormat, tools: readonly ToolDeclaration[]): TagFormat {
  if (format.anchor === 'anywhere') return { type: 'triggered_tags', triggers: [format.opener], tags: tools.map(format.tag) };
  // A call list as the whole reply, or text that visibly is not one. (An
  // empty reply fits neither; xgrammar cannot mix the two in one `or`.)
  const text: TagFormat = { type: 'sequence', elements: [{ type: 'grammar', grammar: notOpeningGrammar(format.opener) }, { type: 'any_text' }] };
  return { type: 'or', elements: [calls(format, tools), text] };
}

/** One or more calls, first thing in the reply. */
function calls(format: CallFormat, tools: readonly ToolDeclaration[]): TagFormat {
  if (format.anchor === 'anywhere') return { type: 'triggered_tags', triggers: [format.opener], tags: tools.map(format.tag), at_least_one: true };
  const { open, separator, close } = format.list;
  return listed(open, { type: 'tags_with_separator', tags: tools.map(format.tag), separator, at_least_one: true }, close);
}

/** Exactly one call to `tool`. */
function one(format: CallFormat, tool: ToolDeclaration): TagFormat {
  if (format.anchor === 'anywhere') return format.tag(tool);
  return listed(format.list.open, format.tag(tool), format.list.close);
}

function listed(open: string, inner: TagFormat, close: string): TagFormat {
  if (!open && !close) return inner;
  const elements: TagFormat[] = [];
  if (open) elements.push({ type: 'const_string', value: open });
  elements.push(inner);
  if (close) elements.push({ type: 'const_string', value: close });
  return { type: 'sequence', elements };
}

function named(tools: readonly ToolDeclaration[], name: string): ToolDeclaration {
  const tool = tools.find((t) => t.name === name);
  // The chat checks tool choices against its tools before any request is built.
  if (!tool) throw new Error(`toolChoice names "${name}", which is not declared`);
  return tool;
}

/**
 * EBNF for the shortest start of a reply that is visibly not `opener` (after
 * leading whitespace, which the scanner skips too): the first k characters
 * match and the next one differs. `any_text` follows it.
 */
export function notOpeningGrammar(opener: string): string {
  const rules = ['root ::= [ \\t\\r\\n]* d0'];
  for (let k = 0; k < opener.length; k++) {
    const c = opener[k]!;
    const other = k === 0 ? `[^${classChar(c)} \\t\\r\\n]` : `[^${classChar(c)}]`;
    rules.push(k === opener.length - 1 ? `d${k} ::= ${other}` : `d${k} ::= ${other} | ${literal(c)} d${k + 1}`);
  }
  return rules.join('\n');
}

/**
 * EBNF for any text that never contains `word`: a string-matching automaton,
 * one rule per matched prefix length (xgrammar 0.1.27's `any_text` has no
 * `excludes`).
 */
export function excludingGrammar(word: string): string {
  const n = word.length;
  const alphabet = [...new Set(word)];
  const next = (state: number, c: string): number => {
    // Longest suffix of word[0..state) + c that is a prefix of word.
    const seen = word.slice(0, state) + c;
    for (let k = Math.min(seen.length, n); k > 0; k--) {
      if (seen.endsWith(word.slice(0, k))) return k;
    }
    return 0;
  };
  const rules = ['root ::= s0'];
  for (let state = 0; state < n; state++) {
    const options = ['""', `[^${alphabet.map(classChar).join('')}] s0`];
    for (const c of alphabet) {
      const to = next(state, c);
      if (to < n) options.push(`${literal(c)} s${to}`);
    }
    rules.push(`s${state} ::= ${options.join(' | ')}`);
  }
  return rules.join('\n');
}

function literal(c: string): string {
  return JSON.stringify(c);
}

function classChar(c: string): string {
  return /[\\\]^\-[]/.test(c) ? '\\' + c : c;
}
