// A call's arguments as compact JSON while the model is still writing them:
// the part of the text that can no longer change, spelled as JSON.stringify
// spells the whole value, so the pieces streamed so far are a prefix of the
// input the call ends with. A longer text only ever extends what it returns
// (streamed deltas are never taken back).
//
// - Whitespace between tokens is dropped; a string's characters show as they
//   come (an escape, or a surrogate pair, once whole), in JSON.stringify's
//   escapes; a number or a literal once something follows it (`1` may become
//   `12`), as JSON.stringify writes it (`1.50` as `1.5`).
// - It stops at the first thing strict JSON does not allow (single quotes,
//   Python's True, a trailing comma): what the repairing reader makes of the
//   rest is known only once the call is whole.
// - It stops after the first whole value: what follows is not the arguments.
//
// The text grows a piece at a time while a call streams, so the reader goes
// on from where it stopped when the text it read is still there.

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'];
/** The characters a number or a literal may go on with. */
const SCALAR = /[\w.+-]*/y;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** What may come next where the reader stands. */
type Expect = 'value' | 'key' | 'colon' | 'comma';

/** The JSON text of `text` so far, read afresh. */
export function jsonPrefix(text: string): string {
  return new JsonPrefix().read(text);
}

export class JsonPrefix {
  #text = '';
  /** How much of #text is read. */
  #at = 0;
  #out = '';
  /** Open containers, innermost last: '{' or '['. */
  #open: string[] = [];
  #expect: Expect = 'value';
  /** A value was read: once nothing is open, the arguments are whole. */
  #read = false;
  /** Inside a string: whether it is a key, and a high surrogate waiting for its pair. */
  #string: { key: boolean; high: string } | null = null;
  #stopped = false;

  /** The JSON of `text` so far (a longer text than the last one, or any text). */
  read(text: string): string {
    if (!text.startsWith(this.#text.slice(0, this.#at))) this.#reset();
    this.#text = text;
    while (!this.#stopped && this.#at < text.length && !(this.#read && this.#open.length === 0)) {
      if (!(this.#string ? this.#stringPiece() : this.#token())) break;
    }
    return this.#out;
  }

  #reset(): void {
    this.#at = 0;
    this.#out = '';
    this.#open = [];
    this.#expect = 'value';
    this.#read = false;
    this.#string = null;
    this.#stopped = false;
  }

  /** Reads one token, or returns false when the text must grow first. */
  #token(): boolean {
    const text = this.#text;
    const c = text[this.#at]!;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') return this.#take(1, '');
    const inObject = this.#open.at(-1) === '{';
    switch (this.#expect) {
      case 'comma':
        if (c === ',') return this.#take(1, c, inObject ? 'key' : 'value');
        if ((c === '}' && inObject) || (c === ']' && !inObject)) return this.#close(c);
        return this.#stop();
      case 'colon':
        return c === ':' ? this.#take(1, c, 'value') : this.#stop();
      default:
        break;
    }
    if (c === '"') {
      this.#string = { key: this.#expect === 'key', high: '' };
      return this.#take(1, c);
    }
    // An empty container closes where a key or value was due (not after a comma: a trailing comma is not JSON).
    if ((c === '}' && this.#expect === 'key' && this.#out.endsWith('{')) || (c === ']' && this.#expect === 'value' && this.#out.endsWith('['))) return this.#close(c);
    if (this.#expect === 'key') return this.#stop();
    if (c === '{' || c === '[') {
      this.#open.push(c);
      this.#read = true;
      return this.#take(1, c, c === '{' ? 'key' : 'value');
    }
    NUMBER.lastIndex = this.#at;
    const number = NUMBER.exec(text)?.[0];
    const literal = number === undefined ? LITERALS.find((l) => text.startsWith(l, this.#at)) : undefined;
    const token = number ?? literal;
    if (token === undefined) {
      // A literal still arriving.
      const rest = text.slice(this.#at, this.#at + 5);
      return LITERALS.some((l) => l.startsWith(rest)) ? false : this.#stop();
    }
    // Whole only once something follows it that cannot extend it (`1` → `1.5`, `null` → `nullx`).
    SCALAR.lastIndex = this.#at;
    const run = SCALAR.exec(text)![0];
    if (this.#at + run.length >= text.length) return false;
    if (run !== token) return this.#stop();
    this.#read = true;
    return this.#take(token.length, number !== undefined ? JSON.stringify(Number(number)) : token, 'comma');
  }

  /** Reads a string's characters up to its end or the end of the text. */
  #stringPiece(): boolean {
    const text = this.#text;
    const string = this.#string!;
    let value = string.high;
    let i = this.#at;
    let closed = false;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        closed = true;
        i++;
        break;
      }
      if (c < ' ') {
        this.#stopped = true;
        break;
      }
      if (c !== '\\') {
        value += c;
        i++;
        continue;
      }
      const kind = text[i + 1];
      if (kind === undefined) break;
      if (kind === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (hex.length < 4) break;
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.#stopped = true;
          break;
        }
        value += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else if (Object.hasOwn(SIMPLE_ESCAPES, kind)) {
        value += SIMPLE_ESCAPES[kind];
        i += 2;
      } else {
        this.#stopped = true;
        break;
      }
    }
    // A high surrogate waits for the low one that may follow it.
    const last = value.charCodeAt(value.length - 1);
    const hold = !closed && !this.#stopped && last >= 0xd800 && last <= 0xdbff ? 1 : 0;
    this.#out += JSON.stringify(value.slice(0, value.length - hold)).slice(1, -1);
    string.high = value.slice(value.length - hold);
    this.#at = i;
    if (!closed) return false;
    this.#out += '"';
    this.#string = null;
    this.#read = true;
    this.#expect = string.key ? 'colon' : 'comma';
    return true;
  }

  #take(length: number, out: string, expect: Expect = this.#expect): boolean {
    this.#at += length;
    this.#out += out;
    this.#expect = expect;
    return true;
  }

  #close(c: string): boolean {
    this.#open.pop();
    return this.#take(1, c, 'comma');
  }

  #stop(): boolean {
    this.#stopped = true;
    return false;
  }
}
