// Hermes / Qwen2.5 / Qwen3 calls: `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>`,
// one block per call, anywhere in the reply (Qwen's template, NousResearch's
// Hermes format). Qwen2.5-Coder sometimes writes `<tools>…</tools>` instead.
import { MODEL_JSON, endOfGroup } from '../bracket-walk.js';
import { guessName, readCallJson } from '../call-json.js';
import { jsonCallInputs } from './json-call-inputs.js';
import type { CallFormat, ReadCalls } from '../types.js';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';
const CLOSERS: Record<string, string> = { [OPEN]: CLOSE, '<tools>': '</tools>' };

function opening(text: string): string {
  return Object.keys(CLOSERS).find((open) => text.startsWith(open)) ?? OPEN;
}

export const hermesJson: CallFormat = {
  anchor: 'anywhere',
  controlOpener: false,
  opener: OPEN,
  opensVariant: (rest) => (rest.startsWith('<tools>') ? 'yes' : '<tools>'.startsWith(rest) ? 'maybe' : 'no'),
  list: { open: '', separator: '\n', close: '' },
  tag: (tool) => ({
    type: 'tag',
    begin: `${OPEN}\n{"name": ${JSON.stringify(tool.name)}, "arguments": `,
    content: { type: 'json_schema', json_schema: tool.parameters },
    end: `}\n${CLOSE}`,
  }),
  closes(text, final) {
    const open = opening(text);
    const end = text.indexOf(CLOSERS[open]!, open.length);
    if (end >= 0) return end + CLOSERS[open]!.length;
    if (!final) return -1;
    // No closing tag at the end of the reply: a JSON value that visibly ended still counts.
    const start = text.slice(open.length).search(/\S/);
    return start < 0 ? -1 : endOfGroup(text, open.length + start, MODEL_JSON);
  },
  read(text): ReadCalls {
    const open = opening(text);
    let body = text.slice(open.length);
    if (body.endsWith(CLOSERS[open]!)) body = body.slice(0, -CLOSERS[open]!.length);
    // Without its closing tag, only a JSON value that visibly ended: a cut-off one is never repaired into a guess.
    else if (endOfGroup(body, body.search(/\S/), MODEL_JSON) !== body.trimEnd().length) return { calls: [], broken: true };
    const calls = readCallJson(body.trim(), ['arguments', 'parameters']);
    return calls ? { calls, broken: false } : { calls: [], broken: true };
  },
  guessName,
  inputs: (text) => jsonCallInputs(text, opening(text).length),
};
