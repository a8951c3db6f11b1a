// Calls written as JSON objects (`{"name": …, "arguments": {…}}`, one or a
// list) followed while they are written: for Hermes, Llama, Mistral and
// Phi-4-mini.
import { MODEL_JSON, endOfGroup } from '../bracket-walk.js';
import type { CallInput } from '../types.js';

// The name first, as every template asks and the grammar writes; a call that
// names its tool after its arguments arrives whole.
const NAME = /\{\s*"name"\s*:\s*"((?:[^"\\\n]|\\.)*)"/y;
const ARGUMENTS = /\s*,\s*"(?:arguments|parameters)"\s*:\s*/y;

/** The call objects from `from` on, in order, as far as they show. */
export function jsonCallInputs(text: string, from: number): CallInput[] {
  const inputs: CallInput[] = [];
  for (let at = text.indexOf('{', from); at >= 0; ) {
    NAME.lastIndex = at;
    const named = NAME.exec(text);
    const name = named ? jsonString(named[1]!) : undefined;
    if (name === undefined) break;
    ARGUMENTS.lastIndex = NAME.lastIndex;
    const args = ARGUMENTS.exec(text) ? ARGUMENTS.lastIndex : -1;
    // Arguments written as a JSON string (some models do) are known only once read.
    inputs.push({ name, args: args >= 0 && text[args] === '{' ? text.slice(args) : '' });
    const end = endOfGroup(text, at, MODEL_JSON);
    if (end < 0) break;
    at = text.indexOf('{', end);
  }
  return inputs;
}

function jsonString(body: string): string | undefined {
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return undefined;
  }
}
