// Regular expressions (JSON Schema `pattern`, string formats, the `regex`
// structural tag) as GBNF, read the way xgrammar 0.1.27 reads them: the
// pattern matches the whole string (JSON Schema's `pattern` searches:
// grammar-schema.ts opens its unanchored ends before either engine reads
// it), `^` and `$` are ignored wherever they are (xgrammar misreads them
// between top-level alternatives, `a$|^b`, which grammar-schema.ts never
// hands it), `.` is any character (newlines too),
// `\s` is [\f\n\r\t\v \u00a0], `\w` is [A-Za-z0-9_], lazy quantifiers are
// plain ones. Lookaround, backreferences, word boundaries and \p{…} cannot be
// written as a grammar: they throw UnsupportedRegex, and callers fall back.
import { ANY_CHAR, type Gbnf, type Range, alt, charClass, complement, literal, mergeRanges, repeat, seq } from './gbnf-builder.js';

export class UnsupportedRegex extends Error {}

type Node =
  | { kind: 'chars'; ranges: Range[] }
  | { kind: 'char'; cp: number }
  | { kind: 'alt'; options: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max?: number };

const DIGIT: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const SPACE: Range[] = [[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0]];
const SIMPLE_ESCAPES: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, '0': 0 };

/**
 * GBNF for strings matching `pattern`. `jsonString`: the text sits between
 * the quotes of a JSON string, so characters JSON must escape are written
 * escaped, and classes never admit a raw `"`, `\` or control character
 * (xgrammar puts the raw regex there, which lets `.` write invalid JSON).
 */
export function regexGbnf(g: Gbnf, pattern: string, jsonString = false): string {
  const parser = new Parser([...pattern].map((c) => c.codePointAt(0)!));
  const tree = parser.parse();
  return new Emitter(g, jsonString).alt(tree);
}

class Parser {
  private i = 0;
  constructor(private readonly cps: number[]) {}

  parse(): Node[][] {
    const tree = this.alternatives();
    if (this.i < this.cps.length) throw new UnsupportedRegex("unmatched ')'");
    return tree;
  }

  private peek(offset = 0): string {
    const cp = this.cps[this.i + offset];
    return cp === undefined ? '' : String.fromCodePoint(cp);
  }

  private alternatives(): Node[][] {
    const options: Node[][] = [[]];
    while (this.i < this.cps.length && this.peek() !== ')') {
      if (this.peek() === '|') {
        this.i++;
        options.push([]);
        continue;
      }
      const atom = this.atom();
      if (atom) options[options.length - 1]!.push(this.quantified(atom));
    }
    return options;
  }

  private atom(): Node | null {
    const c = this.peek();
    if (c === '^' || c === '$') {
      this.i++;
      return null;
    }
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '.') {
      this.i++;
      return { kind: 'chars', ranges: [[0, 0x10ffff]] };
    }
    if (c === '\\') return this.escape(false);
    if ('*+?'.includes(c) || (c === '{' && this.countAhead())) throw new UnsupportedRegex('nothing to repeat');
    this.i++;
    return { kind: 'char', cp: c.codePointAt(0)! };
  }

  private group(): Node {
    this.i++;
    if (this.peek() === '?') {
      if (this.peek(1) === ':') this.i += 2;
      else if (this.peek(1) === '<' && /[A-Za-z]/.test(this.peek(2))) {
        while (this.i < this.cps.length && this.peek() !== '>') this.i++;
        this.i++;
      } else throw new UnsupportedRegex('lookaround or group flags');
    }
    const options = this.alternatives();
    if (this.peek() !== ')') throw new UnsupportedRegex('unclosed group');
    this.i++;
    return { kind: 'alt', options };
  }

  private charClass(): Node {
    this.i++;
    const negated = this.peek() === '^';
    if (negated) this.i++;
    const ranges: Range[] = [];
    while (this.peek() !== ']') {
      if (this.i >= this.cps.length) throw new UnsupportedRegex('unclosed class');
      const lo = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '' && lo.length === 1 && lo[0]![0] === lo[0]![1]) {
        this.i++;
        const hi = this.classAtom();
        if (hi.length !== 1 || hi[0]![0] !== hi[0]![1] || hi[0]![0] < lo[0]![0]) throw new UnsupportedRegex('bad class range');
        ranges.push([lo[0]![0], hi[0]![0]]);
      } else ranges.push(...lo);
    }
    this.i++;
    // `[]` matches nothing: xgrammar refuses it (`[^]`, any character, it takes).
    if (!negated && ranges.length === 0) throw new UnsupportedRegex('empty class');
    return { kind: 'chars', ranges: negated ? complement(ranges) : mergeRanges(ranges) };
  }

  private classAtom(): Range[] {
    if (this.peek() !== '\\') return [[this.cps[this.i]!, this.cps[this.i++]!]];
    const node = this.escape(true);
    return node.kind === 'chars' ? node.ranges : node.kind === 'char' ? [[node.cp, node.cp]] : [];
  }

  private escape(inClass: boolean): Node {
    const c = this.peek(1);
    this.i += 2;
    const classes: Record<string, Range[]> = { d: DIGIT, w: WORD, s: SPACE };
    if (classes[c]) return { kind: 'chars', ranges: classes[c] };
    if (classes[c.toLowerCase()]) return { kind: 'chars', ranges: complement(classes[c.toLowerCase()]!) };
    if (c in SIMPLE_ESCAPES) return { kind: 'char', cp: SIMPLE_ESCAPES[c]! };
    if (c === 'x') return { kind: 'char', cp: this.hex(2) };
    if (c === 'u' && this.peek() === '{') {
      const end = this.cps.indexOf(0x7d, this.i);
      if (end < 0) throw new UnsupportedRegex('bad \\u{…}');
      const cp = parseInt(String.fromCodePoint(...this.cps.slice(this.i + 1, end)), 16);
      this.i = end + 1;
      if (!(cp <= 0x10ffff)) throw new UnsupportedRegex('bad \\u{…}');
      return { kind: 'char', cp };
    }
    if (c === 'u') return { kind: 'char', cp: this.hex(4) };
    if (c === 'c' && /[A-Za-z]/.test(this.peek())) return { kind: 'char', cp: this.cps[this.i++]! % 32 };
    if (c === 'b' && inClass) return { kind: 'char', cp: 8 };
    if (/[1-9kpPbB]/.test(c) || c === '') throw new UnsupportedRegex(`\\${c}`);
    // Anything else escaped (metacharacters, or an unknown letter) is the character itself.
    return { kind: 'char', cp: this.cps[this.i - 1]! };
  }

  private hex(n: number): number {
    const text = String.fromCodePoint(...this.cps.slice(this.i, this.i + n));
    if (!new RegExp(`^[0-9A-Fa-f]{${n}}$`).test(text)) throw new UnsupportedRegex('bad hex escape');
    this.i += n;
    return parseInt(text, 16);
  }

  /** Is a `{m}`, `{m,}` or `{m,n}` quantifier at the cursor? */
  private countAhead(): RegExpExecArray | null {
    return /^\{(\d+)(,(\d*))?\}/.exec(String.fromCodePoint(...this.cps.slice(this.i, this.i + 24)));
  }

  private quantified(atom: Node): Node {
    let node = atom;
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number | undefined;
      if (c === '*' || c === '+' || c === '?') {
        this.i++;
        [min, max] = c === '*' ? [0, undefined] : c === '+' ? [1, undefined] : [0, 1];
      } else if (c === '{' && this.countAhead()) {
        const m = this.countAhead()!;
        this.i += m[0].length;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? undefined : Number(m[3]);
      } else return node;
      if (this.peek() === '?') this.i++;
      node = { kind: 'repeat', node, min, max };
    }
  }
}

/** Characters a JSON string holds raw: not `"`, `\` or a control character. */
const JSON_RAW: Range[] = complement([[0, 0x1f], [0x22, 0x22], [0x5c, 0x5c]]);

class Emitter {
  constructor(
    private readonly g: Gbnf,
    private readonly jsonString: boolean,
  ) {}

  alt(options: Node[][]): string {
    return alt(options.map((seqNodes) => seq(seqNodes.map((n) => this.node(n)))));
  }

  private node(node: Node): string {
    switch (node.kind) {
      case 'char':
        if (this.jsonString && !inRanges(JSON_RAW, node.cp)) return literal(JSON.stringify(String.fromCodePoint(node.cp)).slice(1, -1));
        return literal(String.fromCodePoint(node.cp));
      case 'chars': {
        const ranges = this.jsonString ? intersect(node.ranges, JSON_RAW) : node.ranges;
        const all = ranges.length === 1 && ranges[0]![0] === 0 && ranges[0]![1] === 0x10ffff;
        return all ? ANY_CHAR : charClass(ranges);
      }
      case 'alt':
        return this.alt(node.options);
      case 'repeat':
        return this.repeat(node);
    }
  }

  private repeat(node: Extract<Node, { kind: 'repeat' }>): string {
    let inner = node.node;
    let min = node.min;
    // (X|)* is X*: llama.cpp calls a repeated rule with an empty alternative left-recursive.
    if (node.max === undefined && inner.kind === 'alt' && inner.options.some((o) => o.length === 0)) {
      inner = { kind: 'alt', options: inner.options.filter((o) => o.length > 0) };
      min = 0;
    }
    const body = this.node(inner);
    // Only one element may be repeated; a group becomes a rule of its own
    // (llama.cpp multiplies nested repetitions inside one rule and gives up at 2000).
    const item = inner.kind === 'char' || inner.kind === 'chars' ? body : this.g.rule('re', body);
    return repeat(item, min, node.max);
  }
}

function inRanges(ranges: readonly Range[], cp: number): boolean {
  return ranges.some(([lo, hi]) => lo <= cp && cp <= hi);
}

function intersect(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const [alo, ahi] of a) {
    for (const [blo, bhi] of b) {
      const lo = Math.max(alo, blo);
      const hi = Math.min(ahi, bhi);
      if (lo <= hi) out.push([lo, hi]);
    }
  }
  return mergeRanges(out);
}
