// One AI SDK model call as one tabagent model request: the prompt, the tools
// (JSON Schema), the tool choice and the response format, all enforced by
// tabagent's grammar; the sampling settings tabagent's engines take; and a
// warning, in the spec's words, for every setting they do not.
import type { JSONSchema7, LanguageModelV4CallOptions, LanguageModelV4FunctionTool, SharedV4Warning } from '@ai-sdk/provider';
import { InvalidOptionsError, UnknownToolError } from '../errors/index.js';
import type { JsonSchema } from '../shared/json.js';
import { readsCalls, type GenerationOptions, type ModelInfo, type ModelRequest } from '../shared/model.js';
import type { ToolChoice, ToolDeclaration } from '../shared/tool-protocol.js';
import { DEFAULT_MAX_RESULT_CHARS } from '../tools/encode-result.js';
import { conversationOf, noCallFormat } from './prompt.js';

export interface PreparedRequest {
  request: ModelRequest;
  warnings: SharedV4Warning[];
  /**
   * The tool that stands in for the JSON answer: a JSON response format with
   * tools the model may call (`auto`). The grammar cannot offer "calls or one
   * JSON value" in one reply, so the answer is a call too (as Anthropic's
   * provider does it), its arguments held to the schema; the provider turns
   * it back into text.
   */
  answer?: AnswerTool;
}

export interface AnswerTool {
  name: string;
  /** The schema is not an object's: it is wrapped as `{ value }`, and unwrapped. */
  wrapped: boolean;
}

/** `own`: whether the provider emitted a raw the prompt gives back (see own-raws.ts); by default none is trusted. */
export function prepareRequest(options: LanguageModelV4CallOptions, info: ModelInfo, own: (raw: string) => boolean = () => false): PreparedRequest {
  const warnings: SharedV4Warning[] = [];
  const tools = declarations(options.tools ?? [], warnings);
  // A model that reads no calls (loaded without family, its template writing none) runs without tools, as a chat does.
  if (!readsCalls(info) && tools.length > 0) throw noCallFormat(info.modelId);
  const { system, messages } = conversationOf(options.prompt, info, DEFAULT_MAX_RESULT_CHARS, warnings, own);
  let toolChoice = choiceOf(options.toolChoice, tools);
  const generation = generationOf(options, warnings);
  const request: ModelRequest = { ...(system !== undefined ? { system } : {}), messages, tools, toolChoice, ...(generation ? { generation } : {}) };
  const format = options.responseFormat;
  if (format?.type !== 'json') return { request, warnings };
  const schema = withoutMeta(format.schema ?? {});
  if (tools.length === 0 || toolChoice === 'none') {
    // One JSON value, no calls; the tools stay declared, so the prompt's start (and the KV cache) stays the steps'.
    return { request: { ...request, toolChoice: 'none', output: { schema } }, warnings };
  }
  // 'required' or a named tool: this step calls a tool; the JSON comes in a later one.
  if (toolChoice !== 'auto') return { request, warnings };
  const answer: AnswerTool = { name: freeName(tools), wrapped: schema.type !== 'object' };
  const parameters = answer.wrapped ? { type: 'object', properties: { value: schema }, required: ['value'], additionalProperties: false } : schema;
  const description = format.description ?? `Give your final answer${format.name ? ` (${format.name})` : ''} as this JSON value, once no other tool is needed.`;
  toolChoice = 'required';
  return { request: { ...request, tools: [...tools, { name: answer.name, description, parameters }], toolChoice }, warnings, answer };
}

function declarations(tools: NonNullable<LanguageModelV4CallOptions['tools']>, warnings: SharedV4Warning[]): ToolDeclaration[] {
  const out: ToolDeclaration[] = [];
  for (const tool of tools) {
    if (tool.type !== 'function') {
      warnings.push({ type: 'unsupported', feature: `provider-defined tool ${tool.id}`, details: 'tabagent runs no tools of its own: give the model a function tool.' });
      continue;
    }
    if (tool.inputExamples?.length) warnings.push({ type: 'unsupported', feature: 'inputExamples', details: `the examples of ${tool.name} were not shown to the model; the grammar holds its calls to the schema.` });
    out.push(declaration(tool));
  }
  return out;
}

function declaration(tool: LanguageModelV4FunctionTool): ToolDeclaration {
  return { name: tool.name, description: tool.description ?? '', parameters: withoutMeta(tool.inputSchema) };
}

/** The schema as the grammar reads it (its dialect tag says nothing about the value). */
function withoutMeta(schema: JSONSchema7): JsonSchema {
  const { $schema: _, ...rest } = schema as JsonSchema;
  return rest;
}

function choiceOf(choice: LanguageModelV4CallOptions['toolChoice'], tools: readonly ToolDeclaration[]): ToolChoice {
  switch (choice?.type) {
    case undefined:
    case 'auto':
      return 'auto';
    case 'none':
      return 'none';
    case 'required':
      if (tools.length === 0) throw new InvalidOptionsError('toolChoice', "'required' needs at least one tool");
      return 'required';
    case 'tool':
      if (!tools.some((t) => t.name === choice.toolName)) throw new UnknownToolError(choice.toolName, tools.map((t) => t.name), 'is not one of the tools of this call');
      return { name: choice.toolName };
  }
}

function generationOf(options: LanguageModelV4CallOptions, warnings: SharedV4Warning[]): GenerationOptions | undefined {
  const { maxOutputTokens, temperature, topP, seed, reasoning, stopSequences } = options;
  for (const feature of ['topK', 'presencePenalty', 'frequencyPenalty'] as const) {
    if (options[feature] !== undefined) warnings.push({ type: 'unsupported', feature });
  }
  if (options.includeRawChunks) warnings.push({ type: 'unsupported', feature: 'includeRawChunks', details: 'the engine runs in a worker: there are no raw chunks to pass on.' });
  const generation: GenerationOptions = {};
  if (maxOutputTokens !== undefined) generation.maxTokens = maxOutputTokens;
  if (temperature !== undefined) generation.temperature = temperature;
  if (topP !== undefined) generation.topP = topP;
  if (seed !== undefined) generation.seed = seed;
  if (stopSequences?.length) generation.stopSequences = stopSequences;
  if (reasoning === 'none') generation.thinking = false;
  else if (reasoning !== undefined && reasoning !== 'provider-default') {
    generation.thinking = true;
    warnings.push({ type: 'compatibility', feature: `reasoning: '${reasoning}'`, details: 'a model that thinks does or does not: any level but none turns thinking on.' });
  }
  return Object.keys(generation).length ? generation : undefined;
}

/** `json`, or a name none of the call's tools has. */
function freeName(tools: readonly ToolDeclaration[]): string {
  const taken = new Set(tools.map((t) => t.name));
  let name = 'json';
  for (let i = 2; taken.has(name); i++) name = `json_${i}`;
  return name;
}

