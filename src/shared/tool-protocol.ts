// The tool-call protocol's plain data: model families, tool declarations and
// choices, calls as read, and the engine's message and grammar shapes.
import type { JsonObject, JsonSchema } from './json.js';

/**
 * The tool-call formats tabagent speaks, one per way models write calls.
 * (Plain data here, so the page need not load the codecs.)
 */
export const MODEL_FAMILIES = ['hermes', 'qwen3', 'qwen3.5', 'llama', 'mistral', 'ministral', 'phi4-mini', 'gemma4'] as const;
export type ModelFamily = (typeof MODEL_FAMILIES)[number];

export function isModelFamily(value: unknown): value is ModelFamily {
  return (MODEL_FAMILIES as readonly unknown[]).includes(value);
}

export interface ToolDeclaration {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

/** `'auto'` lets the model choose, `'required'` forces at least one call, `'none'` forbids calls, `{ name }` forces that tool. */
export type ToolChoice = 'auto' | 'required' | 'none' | { name: string };

/** A tool result already encoded as the exact text the model will read. */
export interface EncodedToolResult {
  name: string;
  content: string;
}

/** A message in the engine's (OpenAI-style) chat format, as WebLLM takes it. */
export interface EngineMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
}

/** The `response_format` WebLLM accepts; kept structural so only the worker adapter imports WebLLM. */
export type ResponseFormat =
  | { type: 'structural_tag'; structural_tag: StructuralTag }
  | { type: 'grammar'; grammar: string };

export interface StructuralTag {
  type: 'structural_tag';
  format: TagFormat;
}

/** The subset of xgrammar's structural-tag formats tabagent builds (mirrors @mlc-ai/web-xgrammar 0.1.27's types). */
export interface Tag {
  type: 'tag';
  begin: string;
  content: TagFormat;
  end: string;
}

export type TagFormat =
  | Tag
  | { type: 'json_schema'; json_schema: JsonSchema | boolean }
  | { type: 'qwen_xml_parameter'; json_schema: JsonSchema | boolean }
  | { type: 'any_text' }
  | { type: 'const_string'; value: string }
  | { type: 'grammar'; grammar: string }
  | { type: 'regex'; pattern: string }
  | { type: 'sequence'; elements: TagFormat[] }
  | { type: 'or'; elements: TagFormat[] }
  | { type: 'triggered_tags'; triggers: string[]; tags: Tag[]; at_least_one?: boolean; stop_after_first?: boolean }
  | { type: 'tags_with_separator'; tags: Tag[]; separator: string; at_least_one?: boolean; stop_after_first?: boolean };

/** A call as read from the model's text, before any tool is looked up. */
export type ParsedCall =
  | { name: string; arguments: JsonObject; problem?: undefined }
  | { name: string; arguments?: undefined; problem: { truncated: boolean; detail: string } };

/** The model's finished output, split into what the user reads and what the runtime acts on. */
export interface ParsedTurn {
  text: string;
  reasoning: string;
  calls: ParsedCall[];
}
