// Mistral's [TOOL_CALLS] formats. `[TOOL_CALLS]` is a control token, so a call
// may follow text.
// - Mistral 7B v0.3 (tokenizer v3): `[TOOL_CALLS] [{"name": …, "arguments": …}, …]`
// - Ministral 3 (tokenizer v11+): `[TOOL_CALLS]name[ARGS]{…}`, one block per
//   call; seen as `[TOOL_CALLS]name{…}` where [ARGS] decodes to nothing.
// Both are read whichever the model writes; the grammar writes its own.
import { isJsonObject } from '../../shared/json.js';
import { MODEL_JSON, endOfGroup } from '../bracket-walk.js';
import { guessName, parseModelJson } from '../call-json.js';
import type { CallFormat, CallInput, ReadCalls } from '../types.js';
import type { ToolDeclaration } from '../../shared/tool-protocol.js';
import { endOfObjects, readObjects } from './json-list.js';
import { jsonCallInputs } from './json-call-inputs.js';

const OPEN = '[TOOL_CALLS]';
const ARGS = '[ARGS]';
const NAMED = /^\s*([A-Za-z_][\w.-]*)\s*(\[ARGS\])?\s*/;

function endOfCalls(text: string, final: boolean): number {
  const at = OPEN.length + (/^\s*/.exec(text.slice(OPEN.length))?.[0].length ?? 0);
  if (at >= text.length) return -1;
  if (text[at] === '[') return endOfObjects(text, at + 1, [','], ']', final);
  const named = NAMED.exec(text.slice(OPEN.length));
  // Not a name: nothing here is a call (decided as soon as it shows).
  if (!named) return /^\s*[A-Za-z_]/.test(text.slice(OPEN.length)) ? -1 : text.length;
  const start = OPEN.length + named[0].length;
  return start >= text.length ? -1 : endOfGroup(text, start, MODEL_JSON);
}

function readCalls(text: string): ReadCalls {
  const body = text.slice(OPEN.length);
  const at = OPEN.length + (/^\s*/.exec(body)?.[0].length ?? 0);
  if (text[at] === '[') {
    const { calls, broken, end } = readObjects(text, at + 1, [','], ']', ['arguments', 'parameters']);
    return { calls, broken: broken || text.slice(end).trim() !== '', end };
  }
  const named = NAMED.exec(body);
  if (!named) return { calls: [], broken: true };
  const json = text.slice(OPEN.length + named[0].length).trim();
  // No object, or a cut-off one, is never repaired into a guess.
  if (json === '' || endOfGroup(json, 0, MODEL_JSON) !== json.length) return { calls: [], broken: true };
  const value = parseModelJson(json);
  if (typeof value === 'symbol' || !isJsonObject(value)) return { calls: [], broken: true };
  return { calls: [{ name: named[1]!, arguments: value }], broken: false };
}

// Ministral's name is whole once its arguments open.
const NAMED_ARGS = /^\s*([A-Za-z_][\w.-]*)\s*(?:\[ARGS\])?\s*(?=\{)/;

function inputs(text: string): CallInput[] {
  const body = text.slice(OPEN.length);
  if (body.trimStart().startsWith('[')) return jsonCallInputs(text, OPEN.length);
  const named = NAMED_ARGS.exec(body);
  return named ? [{ name: named[1]!, args: body.slice(named[0].length) }] : [];
}

const guessMistralName = (text: string) => guessName(text) || (NAMED.exec(text.slice(OPEN.length))?.[1] ?? '');

function makeMistral(tag: (tool: ToolDeclaration) => ReturnType<CallFormat['tag']>): CallFormat {
  return {
    anchor: 'anywhere',
    controlOpener: true,
    opener: OPEN,
    list: { open: '', separator: '', close: '' },
    tag,
    closes: endOfCalls,
    read: readCalls,
    guessName: guessMistralName,
    inputs,
  };
}

export const mistralList = makeMistral((tool) => ({
  type: 'tag',
  begin: `${OPEN} [{"name": ${JSON.stringify(tool.name)}, "arguments": `,
  content: { type: 'json_schema', json_schema: tool.parameters },
  end: '}]',
}));

export const ministralArgs = makeMistral((tool) => ({
  type: 'tag',
  begin: `${OPEN}${tool.name}${ARGS}`,
  content: { type: 'json_schema', json_schema: tool.parameters },
  end: '',
}));
