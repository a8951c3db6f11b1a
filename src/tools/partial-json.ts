// The JSON a reply shows so far, while it streams (generateObjectStream):
// closed up with jsonrepair. Loaded only by a stream that needs it, so
// jsonrepair stays out of the page bundle otherwise.
import { jsonrepair } from 'jsonrepair';

const LITERALS = ['true', 'false', 'null'];

/**
 * The best value the text so far shows (not validated); undefined until
 * anything parses. jsonrepair closes a cut-off value, but reads a half-written key as a key
 * (`{"ag` → `{"ag": null}`) and a half-written `tru` as a string. So a member
 * whose value has not begun is dropped and a literal is finished first: keys
 * then only ever appear, never change, as the text grows.
 */
export function partialJson(text: string): unknown | undefined {
  let prefix = text.trimStart();
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  let expectKey = false;
  // Where the object member being written starts, until its value begins.
  let member = -1;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (member >= 0) {
      if (c === ':') continue;
      member = -1; // the value begins
    }
    if (c === '"') {
      inString = true;
      if (expectKey) member = i;
      expectKey = false;
    } else if (c === '{' || c === '[') {
      stack.push(c);
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack.at(-1) === '{';
    }
  }
  if (member >= 0) prefix = prefix.slice(0, member);
  else if (!inString) {
    const word = /[a-z]+$/.exec(prefix)?.[0];
    const literal = word && LITERALS.find((l) => l.startsWith(word));
    if (literal) prefix += literal.slice(word.length);
  }
  if (!prefix) return undefined;
  try {
    return JSON.parse(jsonrepair(prefix));
  } catch {
    return undefined;
  }
}
