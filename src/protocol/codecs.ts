// One codec per model family, picked from a table: the call format, and how
// tools are declared and results given back in the family's own words.
import { hermesJson } from './formats/hermes-json.js';
import { llamaJson } from './formats/llama-json.js';
import { ministralArgs, mistralList } from './formats/mistral.js';
import { phi4ToolCall } from './formats/phi4-mini.js';
import { qwenXml } from './formats/qwen-xml.js';
import { gemma4Call, gemma4Value } from './formats/gemma4.js';
import { pyJson } from './py-json.js';
import { THINK_TAGS, type CallFormat, type ThinkMarkers, type ToolCodec } from './types.js';
import type { EncodedToolResult, EngineMessage, ModelFamily, ToolDeclaration } from '../shared/tool-protocol.js';

const asFunction = (t: ToolDeclaration) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } });

/** System text first, then the tool declarations (or only one of them). */
function joined(system: string | undefined, tools: string, separator = '\n\n'): string {
  return system ? `${system}${separator}${tools}` : tools;
}

type Declare = (tools: readonly ToolDeclaration[], system: string | undefined) => string;
/** The text of a turn's results; `toolRole`: it goes in the template's tool role (which may wrap it). */
type Results = (results: readonly EncodedToolResult[], toolRole: boolean) => string;

function codec(family: ModelFamily, format: CallFormat, declare: Declare, results: Results, think: ThinkMarkers = THINK_TAGS): ToolCodec {
  return {
    family,
    format,
    think,
    renderSystem: (system, tools) => (tools.length === 0 ? system : declare(tools, system)),
    // The tool role where the template has one; a user turn (which every template has) where not.
    renderResults: (list, toolRole): EngineMessage => ({ role: toolRole ? 'tool' : 'user', content: results(list, toolRole) }),
  };
}

/** One result as is, several as a JSON list. */
const plainResults: Results = (results) => (results.length === 1 ? results[0]!.content : `[${results.map((r) => r.content).join(', ')}]`);

// Qwen2.5 / Qwen3 / Hermes: the `# Tools` block of Qwen's template.
const hermesTools = (tools: readonly ToolDeclaration[], system: string | undefined) =>
  joined(
    system,
    '# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
      'You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n' +
      tools.map((t) => pyJson(asFunction(t))).join('\n') +
      '\n</tools>\n\n' +
      'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n' +
      '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>',
  );

// Qwen's template merges a turn's tool messages into one user turn of <tool_response> blocks;
// Hermes' templates put the same blocks in their tool role.
const toolResponses: Results = (results) => results.map((r) => `<tool_response>\n${r.content}\n</tool_response>`).join('\n');

// Qwen3.5 / Qwen3-Coder: the same block, with calls written as XML parameters.
// The system text comes after the tools in Qwen3.5's template.
const qwenXmlTools = (tools: readonly ToolDeclaration[], system: string | undefined) =>
  (
    '# Tools\n\nYou have access to the following functions:\n\n<tools>\n' +
      tools.map((t) => pyJson(asFunction(t))).join('\n') +
      '\n</tools>\n\n' +
      'If you choose to call a function ONLY reply in the following format with NO suffix:\n\n' +
      '<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n' +
      '<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n' +
      '<IMPORTANT>\nReminder:\n' +
      '- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n' +
      '- Required parameters MUST be specified\n' +
      '- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n' +
      '- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n' +
      '</IMPORTANT>' +
      (system ? `\n\n${system}` : '')
  );

// Llama 3.1 / 3.2: the template's `tools_in_user_message=false` form, which keeps the prompt prefix stable.
const llamaTools = (tools: readonly ToolDeclaration[], system: string | undefined) =>
  // A fixed date, as the template's default: a changing date would change the
  // prompt prefix and defeat the KV cache.
  'Environment: ipython\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n' +
  'You have access to the following functions. To call a function, please respond with JSON for a function call.' +
  'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.' +
  'Do not use variables.\n\n' +
  tools.map((t) => pyJson(asFunction(t), 4) + '\n\n').join('') +
  (system ?? '');

// Mistral 7B v0.3 (tokenizer v3): [AVAILABLE_TOOLS] before the instructions,
// one [TOOL_RESULTS] block per result with its content.
const mistralTools = (tools: readonly ToolDeclaration[], system: string | undefined) =>
  `[AVAILABLE_TOOLS] ${pyJson(tools.map(asFunction))}[/AVAILABLE_TOOLS]${system ?? ''}`;

const mistralResults: Results = (results) => results.map((r) => `[TOOL_RESULTS] {"content": ${r.content}}[/TOOL_RESULTS]`).join('');

// Ministral 3 (tokenizer v11+): no spaces after the markers, bare result blocks.
const ministralTools = (tools: readonly ToolDeclaration[], system: string | undefined) =>
  `${system ? `[SYSTEM_PROMPT]${system}[/SYSTEM_PROMPT]` : ''}[AVAILABLE_TOOLS]${pyJson(tools.map(asFunction))}[/AVAILABLE_TOOLS]`;

// Ministral's template wraps its tool role in [TOOL_RESULTS]…[/TOOL_RESULTS]: each result gets its own block.
const ministralResults: Results = (results, toolRole) =>
  toolRole ? results.map((r) => r.content).join('[/TOOL_RESULTS][TOOL_RESULTS]') : results.map((r) => `[TOOL_RESULTS]${r.content}[/TOOL_RESULTS]`).join('');

/**
 * The declarations as one JSON text, as a template that reads a system
 * message's `tools` string is given them: Phi-4-mini's card passes
 * `json.dumps` of each tool's name, description and parameters.
 */
export const toolListJson = (tools: readonly ToolDeclaration[]) => pyJson(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })));

// Phi-4-mini: declarations in <|tool|>…<|/tool|> after the system message, as
// its template writes a system message's `tools`. Its MLC template has no tool
// role; results go back as JSON in a user turn.
const phi4Tools = (tools: readonly ToolDeclaration[], system: string | undefined) => `${system ?? ''}<|tool|>${toolListJson(tools)}<|/tool|>`;

// Gemma 4: <|tool>declaration:…<tool|> after the system text, and each result
// as <|tool_response>response:NAME{value:…}<tool_response|>, as its template writes them.
const gemma4Tools = (tools: readonly ToolDeclaration[], system: string | undefined) =>
  (system ?? '') + tools.map((t) => `<|tool>declaration:${t.name}${gemma4Value({ description: t.description, parameters: t.parameters })}<tool|>`).join('');

const gemma4Results: Results = (results) => results.map((r) => `<|tool_response>response:${r.name}${gemma4Value({ value: r.content })}<tool_response|>`).join('');

export const codecs: Record<ModelFamily, ToolCodec> = {
  hermes: codec('hermes', hermesJson, hermesTools, toolResponses),
  qwen3: codec('qwen3', hermesJson, hermesTools, toolResponses),
  'qwen3.5': codec('qwen3.5', qwenXml, qwenXmlTools, toolResponses),
  llama: codec('llama', llamaJson, llamaTools, plainResults),
  mistral: codec('mistral', mistralList, mistralTools, mistralResults),
  // Ministral 3 Reasoning thinks in [THINK]…[/THINK] (control tokens of its tokenizer), as its system prompt asks.
  ministral: codec('ministral', ministralArgs, ministralTools, ministralResults, { open: '[THINK]', close: '[/THINK]' }),
  'phi4-mini': codec('phi4-mini', phi4ToolCall, phi4Tools, plainResults),
  // Gemma 4 thinks in a thought channel, as its template and llama.cpp's cases write it.
  gemma4: codec('gemma4', gemma4Call, gemma4Tools, gemma4Results, { open: '<|channel>thought', close: '<channel|>' }),
};
