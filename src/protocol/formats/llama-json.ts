// Llama 3.1 / 3.2 JSON tool calling: the whole reply is `{"name": …,
// "parameters": …}` (several joined by `; `), as Meta's template asks. The
// opener is ordinary text, so a call counts only at the start of the reply.
// Also read (never produced by the grammar): an optional `<|python_tag|>`
// before the JSON (or code for the python tool after it), and Llama 3.2's
// pythonic `[f(a=1), g()]`.
import { guessName } from '../call-json.js';
import type { CallFormat, ReadCalls } from '../types.js';
import { endOfObjects, readObjects } from './json-list.js';
import { jsonCallInputs } from './json-call-inputs.js';
import { endOfPythonic, isPythonicList, readCall, readPythonic } from './pythonic.js';
import type { ParsedCall } from '../../shared/tool-protocol.js';

const PYTHON_TAG = '<|python_tag|>';
const OPENER = '{"name": ';
const ARGUMENT_KEYS = ['parameters', 'arguments'];
// Calls joined by `; `, or each after its own <|python_tag|> (SGLang's Llama 3.2 cases).
const SEPARATORS = [';', PYTHON_TAG];

const NAMED_OBJECT = /^\{\s*"name"\s*:/;
const NAMED_OBJECT_START = /^\{\s*(?:"(?:n(?:a(?:m(?:e(?:"\s*)?)?)?)?)?)?$/;

const afterTag = (text: string) => (text.startsWith(PYTHON_TAG) ? PYTHON_TAG.length : 0);

/**
 * Llama 3.1 writes code for its built-in ipython tool after <|python_tag|>;
 * as llama.cpp does, that is a call of `python` with the code (the app's
 * tool of that name runs it, or the model hears there is none). Null when the
 * tag holds JSON calls instead, or nothing yet.
 */
const PYTHON_TOOL = 'python';
/** Built-in tools are called as `NAME.call(key=value)`; anything else is code for `python`. */
function codeCall(code: string): ParsedCall {
  const builtin = /^([A-Za-z_]\w*)\.call\(([\s\S]*)\)$/.exec(code);
  return builtin ? readCall(`${builtin[1]}(${builtin[2]})`) : { name: PYTHON_TOOL, arguments: { code } };
}

function pythonCode(text: string): string | null {
  if (!text.startsWith(PYTHON_TAG)) return null;
  const rest = text.slice(PYTHON_TAG.length);
  const first = rest.trimStart()[0];
  return first === undefined || first === '{' ? null : rest.trim();
}

export const llamaJson: CallFormat = {
  anchor: 'reply-start',
  controlOpener: false,
  anywhereOpener: PYTHON_TAG,
  opener: OPENER,
  list: { open: '', separator: '; ', close: '' },
  tag: (tool) => ({
    type: 'tag',
    begin: `{"name": ${JSON.stringify(tool.name)}, "parameters": `,
    content: { type: 'json_schema', json_schema: tool.parameters },
    end: '}',
  }),
  closes(text, final) {
    if (text.startsWith('[')) return endOfPythonic(text);
    const code = pythonCode(text);
    // Code runs to the end of the reply.
    if (code !== null) return final ? text.length : -1;
    return endOfObjects(text, afterTag(text), SEPARATORS, '', final);
  },
  read(text): ReadCalls {
    if (text.startsWith('[')) return readPythonic(text);
    const code = pythonCode(text);
    if (code !== null) return { calls: [codeCall(code)], broken: false };
    const { calls, broken, end } = readObjects(text, afterTag(text), SEPARATORS, '', ARGUMENT_KEYS);
    return { calls, broken: broken || text.slice(end).trim() !== '', end };
  },
  guessName(text) {
    if (!text.startsWith('[')) return guessName(text);
    // A broken pythonic list names its tool only when it holds one call.
    const names = [...text.matchAll(/(?:^\[|,)\s*([A-Za-z_][\w.]*)\s*\(/g)];
    return names.length === 1 ? names[0]![1]! : '';
  },
  // Pythonic lists and code for `python` arrive whole.
  inputs: (text) => (text.startsWith('[') || pythonCode(text) !== null ? [] : jsonCallInputs(text, afterTag(text))),
  opensVariant(rest) {
    if (rest.startsWith('[')) return isPythonicList(rest);
    if (rest.startsWith(PYTHON_TAG)) return 'yes';
    // The JSON as the template writes it with other spacing (`{"name":"…"`).
    if (NAMED_OBJECT.test(rest)) return 'yes';
    return PYTHON_TAG.startsWith(rest) || NAMED_OBJECT_START.test(rest) ? 'maybe' : 'no';
  },
};
