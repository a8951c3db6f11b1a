// The JSON Schema every Prompt API turn is constrained with
// (`responseConstraint`): the reply is an answer or a list of calls, and the
// tool choice is enforced by which of the two the schema admits, never asked for.
import { grammarSchema } from '../../protocol/grammar-schema.js';
import type { JsonSchema } from '../../shared/json.js';
import type { ModelRequest } from '../../shared/model.js';
import type { ToolDeclaration } from '../../shared/tool-protocol.js';

/** `{"answer": "…"}`: the model's reply to the user. */
export const ANSWER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
};

/** The schema a turn's reply must match. */
export function replySchema(request: Pick<ModelRequest, 'tools' | 'toolChoice' | 'output'>): JsonSchema {
  if (request.output) return grammarSchema(request.output.schema);
  const { tools, toolChoice } = request;
  if (tools.length === 0 || toolChoice === 'none') return ANSWER_SCHEMA;
  const named = typeof toolChoice === 'object' ? tools.filter((t) => t.name === toolChoice.name) : tools;
  const calls = callsSchema(named);
  return toolChoice === 'auto' ? { anyOf: [ANSWER_SCHEMA, calls] } : calls;
}

/** `{"calls": [{"name": …, "arguments": {…}}, …]}`, each call's arguments by its own tool's schema. */
function callsSchema(tools: readonly ToolDeclaration[]): JsonSchema {
  const call = (tool: ToolDeclaration): JsonSchema => ({
    type: 'object',
    properties: { name: { const: tool.name }, arguments: { type: 'object', ...grammarSchema(tool.parameters) } },
    required: ['name', 'arguments'],
    additionalProperties: false,
  });
  const items = tools.length === 1 ? call(tools[0]!) : { anyOf: tools.map(call) };
  return {
    type: 'object',
    properties: { calls: { type: 'array', items, minItems: 1 } },
    required: ['calls'],
    additionalProperties: false,
  };
}
