import { describe, expect, it } from 'vitest';
import { MODEL_JSON, NOT_FOUND, PYTHON_LITERALS, endOfGroup, splitTopLevel } from './bracket-walk.js';

/** The group endOfGroup finds at the start of `text`, or null. */
function groupAt(text: string, syntax = MODEL_JSON): string | null {
  const end = endOfGroup(text, 0, syntax);
  return end === NOT_FOUND ? null : text.slice(0, end);
}

describe('endOfGroup', () => {
  it('ends at the bracket that closes the first one, whatever follows', () => {
    expect(groupAt('{"a": {"b": [1, 2]}} and more {')).toBe('{"a": {"b": [1, 2]}}');
    expect(groupAt('[{"a": 1}, {"b": 2}]; [')).toBe('[{"a": 1}, {"b": 2}]');
  });

  it('starts where it is told', () => {
    const text = '<tool_call>\n{"name": "f"}\n</tool_call>';
    expect(endOfGroup(text, text.indexOf('{'), MODEL_JSON)).toBe(text.indexOf('}') + 1);
  });

  it('leaves brackets inside strings alone, in either quote style', () => {
    expect(groupAt('{"a": "}]"} tail')).toBe('{"a": "}]"}');
    expect(groupAt("{'a': '}]'} tail")).toBe("{'a': '}]'}");
  });

  it('reads one quote style inside the other as plain text', () => {
    expect(groupAt(`{"a": "it's }"} tail`)).toBe(`{"a": "it's }"}`);
    expect(groupAt(`{'a': 'say "}" now'} tail`)).toBe(`{'a': 'say "}" now'}`);
  });

  it('knows escaped quotes and escaped backslashes', () => {
    expect(groupAt('{"a": "x\\"}"} tail')).toBe('{"a": "x\\"}"}');
    expect(groupAt('{"p": "C:\\\\"} tail')).toBe('{"p": "C:\\\\"}');
    expect(groupAt("['it\\'s ]'] tail", PYTHON_LITERALS)).toBe("['it\\'s ]']");
  });

  it('has not found the end while the group is open', () => {
    expect(endOfGroup('{"a": {"b": 1}', 0, MODEL_JSON)).toBe(NOT_FOUND);
    expect(endOfGroup('', 0, MODEL_JSON)).toBe(NOT_FOUND);
  });

  it('has not found the end inside an unterminated string, closers and all', () => {
    expect(endOfGroup('{"a": "}]', 0, MODEL_JSON)).toBe(NOT_FOUND);
    expect(endOfGroup('[f(a="))]', 0, PYTHON_LITERALS)).toBe(NOT_FOUND);
    // The last quote is escaped, so the string is still open.
    expect(endOfGroup('{"a": "x\\"}', 0, MODEL_JSON)).toBe(NOT_FOUND);
  });

  it('counts parentheses in Python literals, not in JSON', () => {
    expect(groupAt('[f(a=(1, 2)), g()] tail', PYTHON_LITERALS)).toBe('[f(a=(1, 2)), g()]');
    expect(groupAt('{"face": :)} tail')).toBe('{"face": :)}');
  });

  it('in Python literals, a bracket closing the wrong group is never found to end, whatever comes after', () => {
    expect(endOfGroup('[f(a=1]', 0, PYTHON_LITERALS)).toBe(NOT_FOUND);
    expect(endOfGroup('[f(a=1])]', 0, PYTHON_LITERALS)).toBe(NOT_FOUND);
    expect(endOfGroup(')[f()]', 0, PYTHON_LITERALS)).toBe(NOT_FOUND);
  });

  it('in JSON, a wrong closer closes one level, left for the repairing reader', () => {
    expect(groupAt('{"a": [1}} tail')).toBe('{"a": [1}}');
  });
});

describe('splitTopLevel', () => {
  it('cuts at commas outside brackets, untrimmed', () => {
    expect(splitTopLevel('f(a=1, b=[2, 3]), g(c={"d": 4, "e": 5})', PYTHON_LITERALS)).toEqual(['f(a=1, b=[2, 3])', ' g(c={"d": 4, "e": 5})']);
  });

  it('leaves commas inside strings alone, in either quote style and past escaped quotes', () => {
    expect(splitTopLevel(`a="x, y", b='it"s, fine', c="q\\", r"`, PYTHON_LITERALS)).toEqual([`a="x, y"`, ` b='it"s, fine'`, ` c="q\\", r"`]);
  });

  it('keeps the empty pieces around stray commas for the caller to judge', () => {
    expect(splitTopLevel(',a,,b,', PYTHON_LITERALS)).toEqual(['', 'a', '', 'b', '']);
    expect(splitTopLevel('', PYTHON_LITERALS)).toEqual(['']);
  });

  it('keeps the rest in one piece after an unterminated string', () => {
    expect(splitTopLevel('a=1, b="x, c=2', PYTHON_LITERALS)).toEqual(['a=1', ' b="x, c=2']);
  });

  it('splits on another separator when told', () => {
    expect(splitTopLevel('{"a": 1; "b"}; {"c": 2}', MODEL_JSON, ';')).toEqual(['{"a": 1; "b"}', ' {"c": 2}']);
  });
});
