// Walking call text over strings and brackets: where a bracket group ends,
// and splitting on a separator outside strings and brackets. The one place
// that knows how quotes escape and brackets nest, for every call format.

/** How the walked text writes strings and brackets. */
export interface Syntax {
  /** Characters that open a string and close it again; inside one, a backslash escapes the next character. */
  readonly quotes: string;
  /** Opening brackets that nest, each closed by its partner of `()`, `[]`, `{}`. */
  readonly brackets: string;
  /**
   * 'matched': a closer must close the bracket last opened, or the group can
   * never be read. 'counted': any closer closes the innermost group, as
   * repairing readers take it (only the depth matters).
   */
  readonly pairs: 'matched' | 'counted';
}

/** Python literals and calls, as Llama writes `[f(a="x"), g()]`. */
export const PYTHON: Syntax = { quotes: `"'`, brackets: '([{', pairs: 'matched' };

/**
 * JSON the way small models write it: single-quoted strings too (the
 * repairing reader takes them), parentheses are text, and a wrong closer is
 * left for the repairing reader to judge.
 */
export const MODEL_JSON: Syntax = { quotes: `"'`, brackets: '[{', pairs: 'counted' };

/** What the walker returns when there is no end: still open, or (for matched pairs) closed wrongly. */
export const NOT_FOUND = -1;

const PARTNER: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };

/** Index of the quote that closes the string opening at `at`, or `text.length` when it never closes. */
function endOfString(text: string, at: number): number {
  const quote = text[at];
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

function closersOf(syntax: Syntax): string {
  return [...syntax.brackets].map((open) => PARTNER[open]).join('');
}

/**
 * Index just past the bracket group that opens at `from` (or at the first
 * opener after it), or NOT_FOUND while the group is open, a string in it is
 * unterminated, or (with matched pairs) a closer does not match its opener.
 */
export function endOfGroup(text: string, from: number, syntax: Syntax): number {
  const closers = closersOf(syntax);
  const expected: string[] = [];
  // Signed: with counted pairs a stray closer before the group takes it below zero.
  let depth = 0;
  for (let i = Math.max(from, 0); i < text.length; i++) {
    const c = text[i]!;
    if (syntax.quotes.includes(c)) i = endOfString(text, i);
    else if (syntax.brackets.includes(c)) {
      expected.push(PARTNER[c]!);
      depth++;
    } else if (closers.includes(c)) {
      if (expected.pop() !== c && syntax.pairs === 'matched') return NOT_FOUND;
      if (--depth === 0) return i + 1;
    }
  }
  return NOT_FOUND;
}

/**
 * `text` cut at each `separator` outside strings and brackets, pieces as
 * written (untrimmed, empty ones kept). Only the depth counts here: the text
 * is a group's inside, read whole by its format afterwards.
 */
export function splitTopLevel(text: string, separator: string, syntax: Syntax): string[] {
  if (separator === '') throw new Error('splitTopLevel: the separator is empty');
  const closers = closersOf(syntax);
  const pieces: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (syntax.quotes.includes(c)) i = endOfString(text, i);
    else if (syntax.brackets.includes(c)) depth++;
    else if (closers.includes(c)) depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      pieces.push(text.slice(start, i));
      start = i + separator.length;
      i = start - 1;
    }
  }
  pieces.push(text.slice(start));
  return pieces;
}
