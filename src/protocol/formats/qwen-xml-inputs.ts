// A Qwen3.5 call followed while it is written, its XML parameters as the JSON
// object the call will hold: `{"key":` as each parameter opens, a text value's
// characters as they come, a JSON value (object or array) once its parameter
// closes, and the closing brace with </function>.
import type { JsonValue } from '../../shared/json.js';
import type { CallInput } from '../types.js';

const HEAD = /^(?:<tool_call>\s*)?<function=([^>\n]+)>/;
const PARAMETER_OPEN = '<parameter=';
const PARAMETER_CLOSE = '</parameter>';
const FUNCTION_CLOSE = '</function>';

/** `readValue`: the format's own reading of a value, so both agree on what a value is. */
export function qwenXmlInputs(text: string, readValue: (text: string) => JsonValue): CallInput[] {
  const head = HEAD.exec(text);
  if (!head) return [];
  let body = text.slice(head[0].length);
  const closed = body.indexOf(FUNCTION_CLOSE);
  if (closed >= 0) body = body.slice(0, closed);
  const name = head[1]!.trim();
  let args = '{';
  for (let at = 0; ; ) {
    const open = body.indexOf(PARAMETER_OPEN, at);
    if (open < 0 && closed >= 0 && body.slice(at).trim() === '') return [{ name, args: args + '}' }];
    const nameEnd = open < 0 ? -1 : body.indexOf('>', open);
    // Anything but a parameter here is not a call the format reads: shown once it is read.
    if (nameEnd < 0 || body.slice(at, open).trim() !== '') return [{ name, args }];
    const key = body.slice(open + PARAMETER_OPEN.length, nameEnd);
    if (key.includes('\n')) return [{ name, args }];
    args += `${args === '{' ? '' : ','}${JSON.stringify(key.trim())}:`;
    const start = body[nameEnd + 1] === '\n' ? nameEnd + 2 : nameEnd + 1;
    const end = body.indexOf(PARAMETER_CLOSE, start);
    if (end < 0) return [{ name, args: args + openValue(body.slice(start)) }];
    const value = body.slice(start, end);
    args += JSON.stringify(readValue(value.endsWith('\n') ? value.slice(0, -1) : value));
    at = end + PARAMETER_CLOSE.length;
  }
}

/**
 * A value still being written: a text value's characters so far, as the
 * start of its JSON string. Held back: a tail that may be the newline and
 * </parameter> that end it, a value that may not be text (it opens with a
 * bracket, may yet be `null`, or shows nothing yet), and half a surrogate
 * pair.
 */
function openValue(value: string): string {
  const sure = value.slice(0, heldFrom(value));
  const first = sure.trimStart()[0];
  if (first === undefined || first === '[' || first === '{' || 'null'.startsWith(sure.trim())) return '';
  const last = sure.charCodeAt(sure.length - 1);
  const whole = last >= 0xd800 && last <= 0xdbff ? sure.slice(0, -1) : sure;
  return JSON.stringify(whole).slice(0, -1);
}

function heldFrom(value: string): number {
  for (let at = Math.max(0, value.length - PARAMETER_CLOSE.length - 1); at < value.length; at++) {
    const tail = value.slice(at);
    if (`\n${PARAMETER_CLOSE}`.startsWith(tail) || PARAMETER_CLOSE.startsWith(tail)) return at;
  }
  return value.length;
}
