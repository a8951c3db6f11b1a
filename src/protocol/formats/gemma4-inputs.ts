// A Gemma 4 call followed while it is written, its arguments in Gemma's
// notation (`{key:<|"|>text<|"|>,n:1}`) spelled as JSON: keys quoted once
// their colon shows, a string's characters as they come, everything else as
// written (json-prefix.ts then keeps only what is whole).
import type { CallInput } from '../types.js';

const HEAD = /^<\|tool_call>call:([A-Za-z_][\w.-]*)(?=\{)/;
const QUOTE = '<|"|>';
const WORD = /[A-Za-z_][\w.-]*/y;
const ATOM = /[-+\d.eE]+/y;
const SPACE = /\s*/y;

export function gemma4Inputs(text: string): CallInput[] {
  const head = HEAD.exec(text);
  return head ? [{ name: head[1]!, args: asJson(text, head[0].length) }] : [];
}

function asJson(text: string, from: number): string {
  let out = '';
  for (let i = from; i < text.length; ) {
    const c = text[i]!;
    if (text.startsWith(QUOTE, i)) {
      const start = i + QUOTE.length;
      const end = text.indexOf(QUOTE, start);
      if (end < 0) return out + JSON.stringify(text.slice(start, heldFrom(text, start))).slice(0, -1);
      out += JSON.stringify(text.slice(start, end));
      i = end + QUOTE.length;
    } else if ('{}[],:'.includes(c) || /\s/.test(c)) {
      out += c;
      i++;
    } else if (isWordStart(c)) {
      WORD.lastIndex = i;
      const word = WORD.exec(text)![0];
      SPACE.lastIndex = i + word.length;
      SPACE.exec(text);
      // A key or a literal (true, null): told apart by the colon after a key.
      if (SPACE.lastIndex >= text.length) return out;
      out += text[SPACE.lastIndex] === ':' ? JSON.stringify(word) : word;
      i += word.length;
    } else {
      ATOM.lastIndex = i;
      const atom = ATOM.exec(text)?.[0];
      if (!atom) return out;
      out += atom;
      i += atom.length;
    }
  }
  return out;
}

function isWordStart(c: string): boolean {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c === '_';
}

/** Where a string still open may be ending: half a closing quote mark, or half a surrogate pair. */
function heldFrom(text: string, start: number): number {
  for (let at = Math.max(start, text.length - QUOTE.length + 1); at < text.length; at++) {
    if (QUOTE.startsWith(text.slice(at))) return at;
  }
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.length - 1 : text.length;
}
