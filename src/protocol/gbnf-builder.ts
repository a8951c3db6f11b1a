// Writing GBNF (llama.cpp's grammar format) that xgrammar's EBNF parser reads
// too, so tests can check our grammars with xgrammar. The common subset:
// - rule names of letters, digits and `-` (llama.cpp rejects `_`);
// - `""` for an empty alternative (xgrammar rejects a bare `|`);
// - no `.` (xgrammar lacks it): any character is ANY_CHAR;
// - one rule per line (llama.cpp ends a rule at a newline outside brackets);
// - escapes both parsers read alike: \" \\ \t \n \r \uHHHH \UHHHHHHHH, and
//   \[ \] \- in classes (llama.cpp has no \^ or \/; xgrammar reads \x with
//   any number of hex digits, llama.cpp with two, so \x is never written).
// Repetition `{m,n}` is expanded by llama.cpp into one rule per optional
// copy and refused from 2000 on, so counts are clamped (see `repeat`), and
// only single elements are repeated (a group's copies multiply).

/** Matches any one character. */
export const ANY_CHAR = '[\\u0000-\\U0010FFFF]';
/**
 * Matches no string at all: a class that excludes every character.
 * (xgrammar 0.1.27 misreads classes that name characters outside ASCII,
 * outside `[…]*`: a negated one lets all of them through, a positive one
 * none. llama.cpp reads them right, so they are written plainly; tests
 * cannot use xgrammar as the oracle there.)
 */
export const NOTHING = '[^\\u0000-\\U0010FFFF]';
/** Repetition counts llama.cpp accepts (it refuses 2000 and above). */
const MAX_REPEAT = 1999;

/** An inclusive range of code points. */
export type Range = readonly [number, number];

export class Gbnf {
  private readonly rules = new Map<string, string>();
  private readonly byBody = new Map<string, string>();
  private readonly taken = new Set(['root']);
  /** The next number to try for each base name: a schema may make thousands of one kind. */
  private readonly numbered = new Map<string, number>();

  /** A fresh rule name built from `hint`. */
  name(hint: string): string {
    const base = hint.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^[^A-Za-z]+|-+$/g, '').replace(/-{2,}/g, '-') || 'r';
    let name = base;
    let i = this.numbered.get(base) ?? 2;
    while (this.taken.has(name)) name = `${base}-${i++}`;
    this.numbered.set(base, i);
    this.taken.add(name);
    this.rules.set(name, '');
    return name;
  }

  /** Gives a name from `name()` its body (separately, so rules can refer to themselves). */
  set(name: string, body: string): string {
    this.rules.set(name, body);
    return name;
  }

  /** A rule for `body`, shared with any earlier rule of the same body. */
  rule(hint: string, body: string): string {
    const known = this.byBody.get(body);
    if (known) return known;
    const name = this.set(this.name(hint), body);
    this.byBody.set(body, name);
    return name;
  }

  /** A rule with a fixed name, defined once however often it is asked for (`body` may refer to `name`). */
  shared(name: string, body: () => string): string {
    if (!this.taken.has(name)) {
      this.taken.add(name);
      this.rules.set(name, '');
      this.rules.set(name, body());
    }
    return name;
  }

  /** The grammar, `root` first. */
  toString(root: string): string {
    const lines = [`root ::= ${root}`];
    for (const [name, body] of this.rules) lines.push(`${name} ::= ${body}`);
    return lines.join('\n') + '\n';
  }
}

/**
 * `item` repeated min..max times (max undefined: no limit); `item` must be
 * one element (a rule, a literal, a class). Counts past llama.cpp's limit
 * widen: a minimum over 1999 becomes 1999, a maximum over 1999 none.
 */
export function repeat(item: string, min: number, max?: number): string {
  const lo = Math.min(Math.max(0, Math.floor(min)), MAX_REPEAT);
  const hi = max === undefined || max > MAX_REPEAT ? undefined : Math.max(lo, Math.floor(max));
  if (hi === 0) return '""';
  if (lo === hi) return lo === 1 ? item : `${item}{${lo}}`;
  if (hi === undefined) return lo === 0 ? `${item}*` : lo === 1 ? `${item}+` : `${item}{${lo},}`;
  return lo === 0 && hi === 1 ? `${item}?` : `${item}{${lo},${hi}}`;
}

/** Alternatives, grouped when there are several. */
export function alt(options: readonly string[]): string {
  const unique = [...new Set(options)];
  if (unique.length === 0) return NOTHING;
  return unique.length === 1 ? unique[0]! : `(${unique.join(' | ')})`;
}

/** A sequence (empty: the empty string). */
export function seq(parts: readonly string[]): string {
  const kept = parts.filter((p) => p !== '""');
  return kept.length === 0 ? '""' : kept.join(' ');
}

/** A string literal matching exactly `text`. */
export function literal(text: string): string {
  let out = '"';
  for (const ch of text) out += escapeChar(ch.codePointAt(0)!, false);
  return out + '"';
}

/** A character class of `ranges` (or of everything else, `negated`). */
export function charClass(ranges: readonly Range[], negated = false): string {
  const merged = mergeRanges(ranges);
  if (merged.length === 0) return negated ? ANY_CHAR : NOTHING;
  if (!negated && merged.length === 1 && merged[0]![0] === merged[0]![1]) return literal(String.fromCodePoint(merged[0]![0]));
  const body = merged.map(([lo, hi]) => (lo === hi ? escapeChar(lo, true) : `${escapeChar(lo, true)}-${escapeChar(hi, true)}`)).join('');
  return `[${negated ? '^' : ''}${body}]`;
}

export function mergeRanges(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** The complement of `ranges` within all code points. */
export function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of mergeRanges(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

function escapeChar(cp: number, inClass: boolean): string {
  if (cp === 0x22) return '\\"';
  if (cp === 0x5c) return '\\\\';
  if (cp === 0x09) return '\\t';
  if (cp === 0x0a) return '\\n';
  if (cp === 0x0d) return '\\r';
  if (inClass && (cp === 0x5b || cp === 0x5d || cp === 0x2d)) return '\\' + String.fromCodePoint(cp);
  // `^` only matters first in a class, but llama.cpp has no `\^`: write it by number.
  if (inClass && cp === 0x5e) return '\\u005E';
  if (cp >= 0x20 && cp < 0x7f) return String.fromCodePoint(cp);
  // Everything else by number (code points, for both parsers).
  const hex = cp.toString(16).toUpperCase();
  return cp <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`;
}
