// Llama 3.1 / 3.2 JSON tool calling: the whole reply is `{"name": …,
// "parameters": …}` (several joined by `; `), as Meta's template asks. The
// opener is ordinary text, so a call counts only at the start of the reply.
// Also read (never produced by the grammar): an optional `<|python_tag|>`
// before the JSON, and Llama 3.2's pythonic `[f(a=1), g()]`.
import { guessName } from '../call-json.js';
import type { CallFormat, ReadCalls } from '../types.js';
import { endOfObjects, readObjects } from './json-list.js';
import { endOfPythonic, isPythonicList, readPythonic } from './pythonic.js';

const PYTHON_TAG = '<|python_tag|>';
const OPENER = '{"name": ';
const ARGUMENT_KEYS = ['parameters', 'arguments'];

const afterTag = (text: string) => (text.startsWith(PYTHON_TAG) ? PYTHON_TAG.length : 0);

export const llamaJson: CallFormat = {
  anchor: 'reply-start',
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
    return endOfObjects(text, afterTag(text), ';', '', final);
  },
  read(text): ReadCalls {
    if (text.startsWith('[')) return readPythonic(text);
    const { calls, broken, end } = readObjects(text, afterTag(text), ';', '', ARGUMENT_KEYS);
    return { calls, broken: broken || text.slice(end).trim() !== '' };
  },
  guessName,
  opensVariant(rest) {
    if (rest.startsWith('[')) return isPythonicList(rest);
    if (rest.startsWith(PYTHON_TAG)) return 'yes';
    return PYTHON_TAG.startsWith(rest) ? 'maybe' : 'no';
  },
};
