// Finding structure in call text without parsing it: where a bracketed group
// ends, and where its top-level commas stand, with brackets and commas inside
// strings left alone. The call formats ask this of text still streaming in,
// before any parser may see it; one walker serves JSON and Python literals.

/** How a kind of call text quotes and nests. */
interface SyntaxRules {
  /** Characters that open a string, which the same character closes; a backslash escapes the character after it. */
  readonly quotes: string;
  /** The opening brackets that nest, of `([{` (their closers follow from them). */
  readonly brackets: string;
  /** Whether a closer of the wrong kind leaves the group unreadable; otherwise it closes one level like any closer. */
  readonly strictClosers: boolean;
}

/** SyntaxRules made ready to walk with. */
export interface Syntax {
  readonly rules: SyntaxRules;
  /** Each ASCII character's role outside strings: the walk runs on every streamed piece of a call. */
  readonly roles: Uint8Array;
}

const NONE = 0;
const QUOTE = 1;
const OPEN = 2;
const CLOSE = 3;
const BACKSLASH = 0x5c;
const CLOSER: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };

function syntax(rules: SyntaxRules): Syntax {
  const roles = new Uint8Array(128);
  for (const c of rules.quotes) roles[c.charCodeAt(0)] = QUOTE;
  for (const c of rules.brackets) {
    roles[c.charCodeAt(0)] = OPEN;
    roles[CLOSER[c]!.charCodeAt(0)] = CLOSE;
  }
  return { rules, roles };
}

/**
 * JSON as small models write it: single-quoted strings too (the repairing
 * reader takes them), and a wrong closer is only one level less, left for that
 * reader to mend or refuse.
 */
export const MODEL_JSON = syntax({ quotes: `"'`, brackets: '{[', strictClosers: false });

/** Python call lists and literals: a bracket closing the wrong group means the list can never be read. */
export const PYTHON_LITERALS = syntax({ quotes: `"'`, brackets: '([{', strictClosers: true });

/** What the walker answers when the group has not ended (still open, inside a string, or closed wrongly). */
export const NOT_FOUND = -1;

/**
 * Calls `visit` for each bracket of `syntax`, and each `also` character, that
 * stands outside strings from `from` on, until it returns true. `depth`: the
 * brackets open after that character, every closer counting one less, right
 * kind or not; `wrongCloser`: a closer that does not close the innermost open
 * bracket (or closes none).
 */
function walk(text: string, from: number, { roles }: Syntax, also: string, visit: (at: number, role: number, depth: number, wrongCloser: boolean) => boolean): void {
  const alsoCode = also === '' ? -1 : also.charCodeAt(0);
  const open: string[] = [];
  let depth = 0;
  let quote = -1;
  for (let i = Math.max(0, from); i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (quote >= 0) {
      if (code === BACKSLASH) i++;
      else if (code === quote) quote = -1;
      continue;
    }
    const role = code < 128 ? roles[code]! : NONE;
    if (role === QUOTE) quote = code;
    else if (role === OPEN) {
      open.push(CLOSER[text[i]!]!);
      if (visit(i, role, ++depth, false)) return;
    } else if (role === CLOSE) {
      if (visit(i, role, --depth, open.pop() !== text[i])) return;
    } else if (code === alsoCode && visit(i, role, depth, false)) return;
  }
}

/**
 * Index just past the bracketed group that opens at `from`, or NOT_FOUND
 * while it is open (an unterminated string keeps it open), and for good when
 * `syntax` has strict closers and one closes the wrong group.
 */
export function endOfGroup(text: string, from: number, syntax: Syntax): number {
  let end = NOT_FOUND;
  walk(text, from, syntax, '', (at, role, depth, wrongCloser) => {
    if (wrongCloser && syntax.rules.strictClosers) return true;
    if (role === CLOSE && depth === 0) end = at + 1;
    return end !== NOT_FOUND;
  });
  return end;
}

/**
 * `text` cut at each `separator` (one character) that stands outside strings
 * and brackets, untrimmed. Splitting never refuses, strict closers or not: a
 * wrong closer still closes a level, and what the pieces hold is for their
 * reader to judge.
 */
export function splitTopLevel(text: string, syntax: Syntax, separator = ','): string[] {
  const parts: string[] = [];
  let start = 0;
  walk(text, 0, syntax, separator, (at, role, depth) => {
    if (role === NONE && depth === 0) {
      parts.push(text.slice(start, at));
      start = at + 1;
    }
    return false;
  });
  parts.push(text.slice(start));
  return parts;
}
