// Phi-4-mini-instruct calls: `<|tool_call|>[{"name": …, "arguments": …}, …]<|/tool_call|>`
// (its official format; the closing marker is often missing). Also read: the
// `functools[…]` form vLLM's and Ollama's templates prompt for, at the start of a line.
import { guessName } from '../call-json.js';
import type { CallFormat, ReadCalls } from '../types.js';
import { endOfObjects, readObjects } from './json-list.js';
import { jsonCallInputs } from './json-call-inputs.js';

const OPEN = '<|tool_call|>';
const CLOSE = '<|/tool_call|>';
const FUNCTOOLS = 'functools[';
const KEYS = ['arguments', 'parameters'];

/** Where the JSON list of a call text starts (after the marker, at its `[`), or -1. */
function listStart(text: string): number {
  if (text.startsWith(FUNCTOOLS)) return FUNCTOOLS.length - 1;
  const at = text.indexOf('[', OPEN.length);
  return at >= 0 && text.slice(OPEN.length, at).trim() === '' ? at : -1;
}

export const phi4ToolCall: CallFormat = {
  anchor: 'anywhere',
  controlOpener: true,
  opener: OPEN,
  list: { open: '', separator: '', close: '' },
  tag: (tool) => ({
    type: 'tag',
    begin: `${OPEN}[{"name": ${JSON.stringify(tool.name)}, "arguments": `,
    content: { type: 'json_schema', json_schema: tool.parameters },
    end: `}]${CLOSE}`,
  }),
  closes(text, final) {
    const start = listStart(text);
    // Anything but a list after the marker is not a call (decided once it
    // shows); nothing after it is left to how the reply ended.
    if (start < 0) return text.slice(OPEN.length).trim() !== '' ? text.length : -1;
    const end = endOfObjects(text, start + 1, [','], ']', final);
    if (end < 0) return -1;
    if (text.startsWith(CLOSE, end)) return end + CLOSE.length;
    // The closing marker may still be arriving.
    return !final && CLOSE.startsWith(text.slice(end)) ? -1 : end;
  },
  read(text): ReadCalls {
    const start = listStart(text);
    if (start < 0) return { calls: [], broken: true };
    const { calls, broken, end } = readObjects(text, start + 1, [','], ']', KEYS);
    const rest = text.slice(end).trim();
    return { calls, broken: broken || (rest !== '' && rest !== CLOSE), end };
  },
  guessName,
  inputs(text) {
    const start = listStart(text);
    return start < 0 ? [] : jsonCallInputs(text, start + 1);
  },
  opensVariant: (rest) => (rest.startsWith(FUNCTOOLS) ? 'yes' : FUNCTOOLS.startsWith(rest) ? 'maybe' : 'no'),
};
