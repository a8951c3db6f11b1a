// A finished reply, read: the answer's text, or the calls it lists.
import { ModelError } from '../../errors/index.js';
import { isJsonObject } from '../../shared/json.js';
import type { ParsedCall } from '../../shared/tool-protocol.js';

export interface ReadReply {
  text: string;
  calls: ParsedCall[];
}

/** The reply JSON as text and calls; the constraint made it one or the other, so anything else is the engine's fault. */
export function readReply(reply: string): ReadReply {
  let value: unknown;
  try {
    value = JSON.parse(reply);
  } catch (cause) {
    throw new ModelError(`the reply is not the JSON it was constrained to: ${JSON.stringify(reply.slice(0, 200))}`, { cause, engineError: 'SyntaxError' });
  }
  if (isJsonObject(value) && typeof value.answer === 'string') return { text: value.answer, calls: [] };
  if (isJsonObject(value) && Array.isArray(value.calls)) {
    const calls = value.calls.map((call): ParsedCall => {
      const name = isJsonObject(call) && typeof call.name === 'string' ? call.name : '';
      const args = isJsonObject(call) ? call.arguments : undefined;
      return isJsonObject(args) ? { name, arguments: args } : { name, problem: { truncated: false, detail: 'the call has no arguments object' } };
    });
    return { text: '', calls };
  }
  throw new ModelError(`the reply is neither an answer nor calls: ${JSON.stringify(reply.slice(0, 200))}`);
}
