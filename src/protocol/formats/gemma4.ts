// Gemma 4 calls: `<|tool_call>call:NAME{key:value,…}<tool_call|>`, anywhere (the
// markers are special tokens). Values are Gemma's own notation: keys bare,
// strings between `<|"|>` marks, numbers, booleans, nested {…} and […].
import type { JsonObject, JsonValue } from '../../shared/json.js';
import type { CallFormat, ReadCalls } from '../types.js';
import { gemma4Inputs } from './gemma4-inputs.js';

const OPEN = '<|tool_call>';
const CLOSE = '<tool_call|>';
const QUOTE = '<|"|>';
const HEAD = /^<\|tool_call>call:([A-Za-z_][\w.-]*)/;

export const gemma4Call: CallFormat = {
  anchor: 'anywhere',
  controlOpener: true,
  opener: OPEN,
  list: { open: '', separator: '', close: '' },
  tag: (tool) => ({
    type: 'tag',
    begin: `${OPEN}call:${tool.name}{`,
    // Gemma's notation is not JSON, so the grammar holds the frame and the
    // name; the arguments are validated against the schema once read.
    content: { type: 'any_text' },
    end: `}${CLOSE}`,
  }),
  closes(text) {
    const end = text.indexOf(CLOSE, OPEN.length);
    if (end >= 0) return end + CLOSE.length;
    return -1;
  },
  read(text): ReadCalls {
    const head = HEAD.exec(text);
    if (!head || !text.endsWith(CLOSE)) return { calls: [], broken: true };
    const body = text.slice(head[0].length, -CLOSE.length).trim();
    const reader = new ValueReader(body);
    const args = reader.value();
    if (!reader.done() || args === undefined || typeof args !== 'object' || args === null || Array.isArray(args)) return { calls: [], broken: true };
    return { calls: [{ name: head[1]!, arguments: args as JsonObject }], broken: false };
  },
  guessName: (text) => HEAD.exec(text)?.[1] ?? '',
  inputs: gemma4Inputs,
};

/** A JSON value in Gemma 4's notation (declarations, results). */
export function gemma4Value(value: unknown): string {
  if (typeof value === 'string') return `${QUOTE}${value}${QUOTE}`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(gemma4Value).join(',')}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${k}:${gemma4Value(v)}`).join(',')}}`;
}

class ValueReader {
  private i = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    this.space();
    return this.i >= this.text.length;
  }

  value(): JsonValue | undefined {
    this.space();
    const t = this.text;
    if (t.startsWith(QUOTE, this.i)) {
      const end = t.indexOf(QUOTE, this.i + QUOTE.length);
      if (end < 0) return undefined;
      const s = t.slice(this.i + QUOTE.length, end);
      this.i = end + QUOTE.length;
      return s;
    }
    if (t[this.i] === '{') return this.members('}', true);
    if (t[this.i] === '[') return this.members(']', false);
    const atom = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(t.slice(this.i));
    if (!atom) return undefined;
    this.i += atom[0].length;
    return JSON.parse(atom[0]) as JsonValue;
  }

  private members(close: string, keyed: boolean): JsonValue | undefined {
    this.i++;
    const object: JsonObject = {};
    const list: JsonValue[] = [];
    this.space();
    if (this.text[this.i] === close) {
      this.i++;
      return keyed ? object : list;
    }
    for (;;) {
      let key = '';
      if (keyed) {
        const match = /^\s*([A-Za-z_][\w.-]*)\s*:/.exec(this.text.slice(this.i));
        if (!match) return undefined;
        key = match[1]!;
        this.i += match[0].length;
      }
      const v = this.value();
      if (v === undefined) return undefined;
      if (keyed) Object.defineProperty(object, key, { value: v, enumerable: true, writable: true, configurable: true });
      else list.push(v);
      this.space();
      const c = this.text[this.i++];
      if (c === close) return keyed ? object : list;
      if (c !== ',') return undefined;
    }
  }

  private space(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i]!)) this.i++;
  }
}
