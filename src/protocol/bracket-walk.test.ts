// Where call text ends and how it splits, over the strings and brackets the
// call formats write: JSON as small models write it, and Python literals.
import { describe, expect, it } from 'vitest';
import { endOfGroup, MODEL_JSON, NOT_FOUND, PYTHON, splitTopLevel } from './bracket-walk.js';

describe('endOfGroup', () => {
  it.each([
    ['a flat object', '{"a": 1} tail', 8],
    ['nested brackets', '{"a": [1, {"b": 2}]}, next', 20],
    ['a closer inside a string', '{"a": "}]"} tail', 11],
    ['an escaped double quote', '{"a": "say \\"}\\" ok"}x', 21],
    ['an escaped backslash before the closing quote', '{"a": "\\\\"}x', 11],
    ['a single-quoted string', "{'a': '}'}x", 10],
    ['a single quote inside double quotes', '{"a": "it\'s }"}x', 15],
    ['a double quote inside single quotes', "{'a': 'say \"}'}x", 15],
  ])('finds the end of %s in model JSON', (_, text, end) => {
    expect(endOfGroup(text, 0, MODEL_JSON)).toBe(end);
    expect(text.slice(0, end).endsWith('}')).toBe(true);
  });

  it('starts at `from`, or at the first opener after it', () => {
    expect(endOfGroup('x = {"a": 1}', 0, MODEL_JSON)).toBe(12);
    expect(endOfGroup('{"a": 1} {"b": 2}', 8, MODEL_JSON)).toBe(17);
  });

  it('ends a Python call list over parentheses, brackets and braces', () => {
    const text = '[f(a=(1, 2), b={"k": [3]}), g(c=\'),\')] trailing';
    expect(endOfGroup(text, 0, PYTHON)).toBe(text.indexOf(' trailing'));
  });

  it('takes parentheses as text in JSON', () => {
    expect(endOfGroup('{"a": (}', 0, MODEL_JSON)).toBe(8);
  });

  it.each([
    ['an open group', '{"a": [1, 2]'],
    ['an unterminated string', '{"a": "}]'],
    ['an escape as the last character', '{"a": "\\'],
    ['no group at all', 'plain text'],
    ['nothing', ''],
  ])('reports %s as not found', (_, text) => {
    expect(endOfGroup(text, 0, MODEL_JSON)).toBe(NOT_FOUND);
    expect(endOfGroup(text, 0, PYTHON)).toBe(NOT_FOUND);
  });

  it('reports a closer that does not match its opener as not found with matched pairs', () => {
    expect(endOfGroup('[f(a=1]', 0, PYTHON)).toBe(NOT_FOUND);
    expect(endOfGroup('[f(a=1]) ]', 0, PYTHON)).toBe(NOT_FOUND);
    expect(endOfGroup(')[f()]', 0, PYTHON)).toBe(NOT_FOUND);
  });

  it('lets any closer close the innermost group with counted pairs', () => {
    expect(endOfGroup('{"a": [1}}', 0, MODEL_JSON)).toBe(10);
  });
});

describe('splitTopLevel', () => {
  it('splits only outside strings and brackets, keeping pieces as written', () => {
    expect(splitTopLevel(`a=1, b=[1, 2], c={"x": (3, 4)}, d="p, q", e='r, "s'`, ',', PYTHON)).toEqual([
      'a=1',
      ' b=[1, 2]',
      ' c={"x": (3, 4)}',
      ' d="p, q"',
      ` e='r, "s'`,
    ]);
  });

  it('keeps escaped quotes inside their string', () => {
    expect(splitTopLevel(`a="x\\", y", b='\\', z'`, ',', PYTHON)).toEqual([`a="x\\", y"`, ` b='\\', z'`]);
  });

  it('keeps empty pieces', () => {
    expect(splitTopLevel(',a,,b,', ',', PYTHON)).toEqual(['', 'a', '', 'b', '']);
    expect(splitTopLevel('', ',', PYTHON)).toEqual(['']);
  });

  it('leaves an unterminated string, and what follows it, in the last piece', () => {
    expect(splitTopLevel('a=1, b="x, c=2', ',', PYTHON)).toEqual(['a=1', ' b="x, c=2']);
  });

  it('does not split inside an unclosed bracket', () => {
    expect(splitTopLevel('a=[1, 2', ',', PYTHON)).toEqual(['a=[1, 2']);
  });

  it('splits on a separator longer than one character', () => {
    expect(splitTopLevel('{"a": "; "}; {"b": 1}', '; ', MODEL_JSON)).toEqual(['{"a": "; "}', '{"b": 1}']);
  });

  it('refuses an empty separator', () => {
    expect(() => splitTopLevel('a', '', PYTHON)).toThrow(/separator is empty/);
  });
});
