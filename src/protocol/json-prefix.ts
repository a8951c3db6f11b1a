// A call's arguments as compact JSON while the model is still writing them:
// the part of the text that can no longer change, spelled as JSON.stringify
// spells the whole value, so the pieces streamed so far are a prefix of the
// input the call ends with. Feeding it a longer text only ever extends what it
// returns (streamed deltas are never taken back).
//
// - Whitespace between tokens is dropped; a string's characters show as they
//   come (an escape, or a surrogate pair, once whole), in JSON.stringify's
//   escapes; a number or a literal once something follows it (`1` may become
//   `12`), as JSON.stringify writes it (`1.50` as `1.5`).
// - It stops at the first thing strict JSON does not allow (single quotes,
//   Python's True, a trailing comma): what the repairing reader makes of the
//   rest is known only once the call is whole.
// - It stops after the first whole value: what follows is not the arguments.

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;
const LITERALS = ['true', 'false', 'null'];
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Where a container stands: what the next token may be. */
type Expect = 'value' | 'key' | 'colon' | 'comma';

export function jsonPrefix(text: string): string {
  let out = '';
  // Open containers, innermost last: '{' or '['.
  const open: string[] = [];
  let expect: Expect = 'value';
  let first = true;
  let i = 0;
  const ended = () => open.length === 0 && !first;
  while (i < text.length && !ended()) {
    const c = text[i]!;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') {
      i++;
      continue;
    }
    const inObject = open.at(-1) === '{';
    if (expect === 'comma') {
      if (c === ',') {
        out += c;
        expect = inObject ? 'key' : 'value';
      } else if ((c === '}' && inObject) || (c === ']' && !inObject)) {
        out += c;
        open.pop();
        expect = 'comma';
      } else return out;
      i++;
      continue;
    }
    if (expect === 'colon') {
      if (c !== ':') return out;
      out += c;
      expect = 'value';
      i++;
      continue;
    }
    // A key, or a value.
    if (c === '"') {
      const string = readString(text, i);
      out += string.shown;
      if (string.end < 0) return out;
      i = string.end;
      expect = expect === 'key' ? 'colon' : 'comma';
      first = false;
      continue;
    }
    // An empty container closes where a key or value was due (not after a comma: a trailing comma is not JSON).
    if ((c === '}' && expect === 'key' && out.endsWith('{')) || (c === ']' && expect === 'value' && out.endsWith('['))) {
      out += c;
      open.pop();
      expect = 'comma';
      i++;
      continue;
    }
    if (expect === 'key') return out;
    if (c === '{' || c === '[') {
      out += c;
      open.push(c);
      expect = c === '{' ? 'key' : 'value';
      first = false;
      i++;
      continue;
    }
    const rest = text.slice(i);
    const number = NUMBER.exec(rest)?.[0];
    const literal = LITERALS.find((l) => rest.startsWith(l));
    const token = number ?? literal;
    // Whole only once something follows it; a literal's next character must not be a letter (`nullx`).
    if (!token || i + token.length >= text.length || /[\w.+-]/.test(text[i + token.length]!)) return out;
    out += number !== undefined ? JSON.stringify(Number(number)) : literal;
    i += token.length;
    expect = 'comma';
    first = false;
  }
  return out;
}

/**
 * A string token from its opening quote: its text as JSON.stringify writes
 * it, as far as it is whole, and the index after its closing quote (-1 while
 * it is open, or when it breaks the rules).
 */
function readString(text: string, start: number): { shown: string; end: number } {
  let value = '';
  let shown = '"';
  let i = start + 1;
  const flush = (closing: boolean) => {
    // A high surrogate waits for the low one that may follow it.
    const last = value.charCodeAt(value.length - 1);
    const keep = !closing && last >= 0xd800 && last <= 0xdbff ? 1 : 0;
    shown += JSON.stringify(value.slice(0, value.length - keep)).slice(1, -1);
    value = value.slice(value.length - keep);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      flush(true);
      return { shown: shown + '"', end: i + 1 };
    }
    if (c < ' ') break;
    if (c !== '\\') {
      value += c;
      i++;
      continue;
    }
    const kind = text[i + 1];
    if (kind === undefined) break;
    if (kind === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (hex.length < 4 || !/^[0-9a-fA-F]{4}$/.test(hex)) break;
      value += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    } else if (Object.hasOwn(SIMPLE_ESCAPES, kind)) {
      value += SIMPLE_ESCAPES[kind];
      i += 2;
    } else break;
  }
  flush(false);
  return { shown, end: -1 };
}
