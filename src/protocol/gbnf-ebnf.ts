// xgrammar EBNF (the `grammar` formats grammar.ts writes) rewritten as GBNF
// inside a larger grammar. The two dialects share their structure but not
// their lexemes: xgrammar names may hold `_` and `.`, and its escapes
// (\xH…, \e, \a, \d in classes…) are not llama.cpp's. So the text is read
// token by token and written again: names get a prefix of their own (the
// grammar is one part of a bigger one), literals and classes are re-encoded,
// one rule per line. Lookahead assertions and TagDispatch are refused.
import { type Gbnf, type Range, charClass, complement, literal } from './gbnf-builder.js';

type Token = { kind: 'name'; text: string } | { kind: 'define' } | { kind: 'out'; text: string };

/** Adds the rules of `ebnf` to `g`; returns the name its `root` rule got. */
export function ebnfGbnf(g: Gbnf, ebnf: string): string {
  const tokens = lex(ebnf);
  const rules: { name: string; body: Token[] }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'name' && tokens[i + 1]?.kind === 'define') {
      rules.push({ name: t.text, body: [] });
      i++;
    } else if (rules.length === 0) throw new Error('EBNF: expected a rule');
    else rules[rules.length - 1]!.body.push(t);
  }
  const renamed = new Map(rules.map((r) => [r.name, g.name(`g-${r.name}`)]));
  for (const rule of rules) {
    let body = '';
    for (const t of rule.body) {
      if (t.kind === 'define') continue;
      const name = t.kind === 'name' ? renamed.get(t.text) : t.text;
      if (!name) throw new Error(`EBNF: rule "${t.text}" is not defined`);
      // Quantifiers stay attached to what they repeat.
      body += /^[*+?{]/.test(name) || body === '' ? name : ` ${name}`;
    }
    g.set(renamed.get(rule.name)!, body);
  }
  const root = renamed.get('root');
  if (!root) throw new Error('EBNF: no root rule');
  return root;
}

const NAME = /^[A-Za-z_.-][A-Za-z0-9_.-]*/;
const C_ESCAPES: Record<string, number> = { "'": 0x27, '"': 0x22, '?': 0x3f, '\\': 0x5c, a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '0': 0, e: 0x1b };
const CLASS_ESCAPES: Record<string, Range[]> = { d: [[0x30, 0x39]], w: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]], s: [[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0]] };

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) i++;
    else if (c === '#') while (i < text.length && text[i] !== '\n') i++;
    else if (text.startsWith('::=', i)) {
      tokens.push({ kind: 'define' });
      i += 3;
    } else if (c === '"') {
      let value = '';
      for (i++; text[i] !== '"'; ) {
        if (i >= text.length) throw new Error('EBNF: unterminated string');
        const [cp, next] = char(text, i, {});
        value += String.fromCodePoint(cp);
        i = next;
      }
      i++;
      tokens.push({ kind: 'out', text: literal(value) });
    } else if (c === '[') {
      const [out, next] = charClassAt(text, i);
      tokens.push({ kind: 'out', text: out });
      i = next;
    } else if (text.startsWith('(=', i)) throw new Error('EBNF: lookahead assertions have no GBNF form');
    else if ('|()*+?'.includes(c)) tokens.push({ kind: 'out', text: text[i++]! });
    else if (c === '{') {
      const end = text.indexOf('}', i);
      const count = text.slice(i, end + 1).replace(/\s+/g, '');
      if (end < 0 || !/^\{\d+(,\d*)?\}$/.test(count)) throw new Error('EBNF: bad repetition');
      tokens.push({ kind: 'out', text: count });
      i = end + 1;
    } else {
      const name = NAME.exec(text.slice(i))?.[0];
      if (!name || name === 'TagDispatch') throw new Error(`EBNF: unexpected "${text.slice(i, i + 10)}"`);
      tokens.push({ kind: 'name', text: name });
      i += name.length;
    }
  }
  return tokens;
}

/** One character or escape at `i` (xgrammar's reading); returns its code point and where the next one starts. */
function char(text: string, i: number, extra: Record<string, number>): [number, number] {
  if (text[i] !== '\\') {
    const cp = text.codePointAt(i)!;
    return [cp, i + (cp > 0xffff ? 2 : 1)];
  }
  const e = text[i + 1] ?? '';
  if (e in extra) return [extra[e]!, i + 2];
  if (e in C_ESCAPES) return [C_ESCAPES[e]!, i + 2];
  const hex = e === 'x' ? /^[0-9A-Fa-f]+/.exec(text.slice(i + 2))?.[0] : e === 'u' || e === 'U' ? text.slice(i + 2, i + (e === 'u' ? 6 : 10)) : undefined;
  if (hex && /^[0-9A-Fa-f]+$/.test(hex) && (e === 'x' || hex.length === (e === 'u' ? 4 : 8))) return [parseInt(hex, 16), i + 2 + hex.length];
  throw new Error(`EBNF: unknown escape \\${e}`);
}

function charClassAt(text: string, start: number): [string, number] {
  let i = start + 1;
  const negated = text[i] === '^';
  if (negated) i++;
  const ranges: Range[] = [];
  const special = Object.fromEntries([...'^$\\.*+?()[]{}|/-'].map((c) => [c, c.codePointAt(0)!]));
  while (text[i] !== ']') {
    if (i >= text.length || text[i] === '\n') throw new Error('EBNF: unterminated class');
    const e = text[i + 1] ?? '';
    if (text[i] === '\\' && e.toLowerCase() in CLASS_ESCAPES) {
      const set = CLASS_ESCAPES[e.toLowerCase()]!;
      ranges.push(...(e === e.toLowerCase() ? set : complement(set)));
      i += 2;
      continue;
    }
    const [lo, next] = char(text, i, special);
    i = next;
    if (text[i] === '-' && text[i + 1] !== ']') {
      const [hi, after] = char(text, i + 1, special);
      ranges.push([lo, hi]);
      i = after;
    } else ranges.push([lo, lo]);
  }
  return [charClass(ranges, negated), i + 1];
}
