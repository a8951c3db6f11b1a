// A JSON Schema `pattern` as the checks read it. JSON Schema means ECMA-262
// regular expressions, and tools write them without the `u` flag (zod keeps a
// regex's source, `/^[a-z]+\-[0-9]+$/`; Python's `re` escapes `\:` or `\_`),
// while the validator (@cfworker/json-schema) compiles every pattern with
// `u`, where an identity escape of anything but a syntax character is an
// error. Such an escape means the character itself, so it is written plain.

/** `pattern` as a `u`-flag regular expression that matches what it means; undefined when it is not one. */
export function unicodePattern(pattern: string): string | undefined {
  if (compiles(pattern)) return pattern;
  const plain = withoutIdentityEscapes(pattern);
  return plain !== pattern && compiles(plain) ? plain : undefined;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Characters a `u`-mode identity escape may name (ECMA-262 SyntaxCharacter and `/`). */
const SYNTAX = new Set('^$\\.*+?()[]{}|/');

/** `\X` as `X` where X is neither a letter, a digit nor a syntax character (`\-` stays inside a class, where it is allowed and needed). */
function withoutIdentityEscapes(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const next = String.fromCodePoint(pattern.codePointAt(i + 1)!);
      const keep = /[A-Za-z0-9]/.test(next) || SYNTAX.has(next) || (next === '-' && inClass);
      out += keep ? c + next : next;
      i += next.length;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}
