// Qwen3.5 (and Qwen3-Coder) calls: XML parameters inside <tool_call>:
//   <tool_call>\n<function=NAME>\n<parameter=P>\nVALUE\n</parameter>\n</function>\n</tool_call>
// xgrammar's `qwen_xml_parameter` constrains the parameters against the schema.
import type { JsonObject, JsonValue } from '../../shared/json.js';
import { parseModelJson } from '../call-json.js';
import { xmlParameters } from './qwen-xml-schema.js';
import type { CallFormat, ReadCalls } from '../types.js';
import { qwenXmlInputs } from './qwen-xml-inputs.js';
import type { ParsedCall } from '../../shared/tool-protocol.js';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';
const BARE = '<function=';
const FUNCTION_CLOSE = '</function>';
const FUNCTION = /^\s*<function=([^>\n]+)>([\s\S]*?)<\/function>\s*$/;
// A value never holds another parameter's opening: one missing its </parameter> leaves text unread (malformed).
const PARAMETER = /<parameter=([^>\n]+)>\n?((?:(?!<parameter=)[\s\S])*?)\n?<\/parameter>/g;

export const qwenXml: CallFormat = {
  anchor: 'anywhere',
  controlOpener: false,
  opener: OPEN,
  list: { open: '', separator: '\n', close: '' },
  tag: (tool) =>
    hasProperties(tool.parameters)
      ? { type: 'tag', begin: `${OPEN}\n<function=${tool.name}>\n`, content: { type: 'qwen_xml_parameter', json_schema: xmlParameters(tool.parameters) }, end: `\n</function>\n${CLOSE}` }
      : // xgrammar 0.1.27 aborts on qwen_xml_parameter with no properties; a call without them is fixed text.
        { type: 'tag', begin: `${OPEN}\n<function=${tool.name}>\n`, content: { type: 'const_string', value: '</function>' }, end: `\n${CLOSE}` },
  closes(text, final) {
    if (text.startsWith(BARE)) return endOfBare(text, final);
    const end = text.indexOf(CLOSE, OPEN.length);
    if (end >= 0) return end + CLOSE.length;
    return -1;
  },
  read(text): ReadCalls {
    // A call written without its <tool_call> wrapper (Qwen3-Coder drops it at times, as vLLM's cases show).
    if (text.startsWith(BARE)) return qwenXml.read(`${OPEN}\n${text.replace(/\s*<\/tool_call>$/, '')}\n${CLOSE}`);
    if (!text.endsWith(CLOSE)) return { calls: [], broken: true };
    const match = FUNCTION.exec(text.slice(OPEN.length, -CLOSE.length));
    if (!match) return { calls: [], broken: true };
    const args: JsonObject = Object.create(null) as JsonObject;
    const body = match[2]!;
    let rest = body;
    for (const [whole, name, value] of body.matchAll(PARAMETER)) {
      args[name!.trim()] = readValue(value!);
      rest = rest.replace(whole, '');
    }
    if (rest.trim() !== '') return { calls: [], broken: true };
    const call: ParsedCall = { name: match[1]!.trim(), arguments: args };
    return { calls: [call], broken: false };
  },
  guessName: (text) => /<function=([^>\n]{1,200})>/.exec(text)?.[1] ?? '',
  opensVariant: (rest) => (rest.startsWith(BARE) ? 'yes' : BARE.startsWith(rest) ? 'maybe' : 'no'),
  inputs: (text) => qwenXmlInputs(text, readValue),
};

/** Where a wrapper-less call ends: after </function>, and the stray </tool_call> that may follow it. */
function endOfBare(text: string, final: boolean): number {
  const end = text.indexOf(FUNCTION_CLOSE);
  if (end < 0) return -1;
  const after = end + FUNCTION_CLOSE.length;
  const rest = text.slice(after).trimStart();
  if (rest.startsWith(CLOSE)) return text.indexOf(CLOSE, after) + CLOSE.length;
  return !final && rest.length < CLOSE.length && CLOSE.startsWith(rest) ? -1 : after;
}

function hasProperties(schema: unknown): boolean {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0;
}

/**
 * Values are bare text. Objects and arrays are JSON, `null` is null (the
 * template writes None so; vLLM's parser reads it so); everything else stays
 * a string, which argument validation coerces ("2" for an integer) as it
 * does for any model.
 */
function readValue(text: string): JsonValue {
  const trimmed = text.trim();
  if (trimmed === 'null') return null;
  if (/^[[{]/.test(trimmed)) {
    const value = parseModelJson(trimmed);
    if (typeof value !== 'symbol') return value;
  }
  return text;
}
