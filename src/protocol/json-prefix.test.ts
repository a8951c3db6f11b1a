import { describe, expect, it } from 'vitest';
import { JsonPrefix, jsonPrefix } from './json-prefix.js';

/** Every prefix of `text`, in order, through jsonPrefix. */
const grown = (text: string) => Array.from({ length: text.length + 1 }, (_, n) => jsonPrefix(text.slice(0, n)));

function expectStreamsTo(text: string, whole: string): void {
  const steps = grown(text);
  steps.forEach((step, n) => {
    // Never taken back, and always on the way to the whole value's text.
    expect(whole.startsWith(step), `after ${JSON.stringify(text.slice(0, n))}`).toBe(true);
    if (n > 0) expect(step.startsWith(steps[n - 1]!)).toBe(true);
  });
  expect(steps.at(-1)).toBe(whole);
}

describe('jsonPrefix', () => {
  it('goes on from where it stopped as the text grows, and starts over on a text that is not the last one grown', () => {
    const reader = new JsonPrefix();
    const text = '{"a": "one", "b": [1.5, true], "c": "two"}';
    for (let n = 0; n <= text.length; n++) expect(reader.read(text.slice(0, n))).toBe(jsonPrefix(text.slice(0, n)));
    expect(reader.read('{"z": 2}')).toBe('{"z":2}');
  });

  const values: unknown[] = [
    { city: 'Oslo', days: 3 },
    { nested: { list: [1, -2.5, 3e2, true, false, null, [], {}], empty: '' }, 'k"ey': 'a\\b' },
    ['é', 'emoji 😀 and \u0001 and \u2028', 0, 12345678901234],
    'just a string',
  ];

  it('streams the compact JSON.stringify text of a value as its text grows, however it is spaced', () => {
    for (const value of values) {
      const whole = JSON.stringify(value);
      expectStreamsTo(whole, whole);
      expectStreamsTo(JSON.stringify(value, null, 2), whole);
      expectStreamsTo(JSON.stringify(value, null, '\t') + '\n', whole);
    }
  });

  it('writes escapes, numbers and a split surrogate pair as JSON.stringify does, once whole', () => {
    const text = '{"a": "\\u00e9\\/\\ud83d\\ude00\\n", "b": 1.50, "c": 1E2}';
    expectStreamsTo(text, JSON.stringify(JSON.parse(text)));
    // Half an escape, or a number that may go on, is held back.
    expect(jsonPrefix('{"a": "x\\u00')).toBe('{"a":"x');
    expect(jsonPrefix('{"a": 12')).toBe('{"a":');
    expect(jsonPrefix('{"a": tru')).toBe('{"a":');
    expect(jsonPrefix('{"a": "\\ud83d')).toBe('{"a":"');
    expect(jsonPrefix('{"a": 1.')).toBe('{"a":');
    expect(jsonPrefix('{"a": 1e+')).toBe('{"a":');
  });

  it('stops at what strict JSON does not allow, and after the first whole value', () => {
    expect(jsonPrefix("{\"a\": 1, 'b': 2}")).toBe('{"a":1,');
    expect(jsonPrefix('{"a": True}')).toBe('{"a":');
    expect(jsonPrefix('{"a": 1,}')).toBe('{"a":1,');
    expect(jsonPrefix('{"a": "x\ty"}')).toBe('{"a":"x');
    expect(jsonPrefix('{"a": [1]]')).toBe('{"a":[1]');
    expect(jsonPrefix('{"a": 1}}\n</tool_call>')).toBe('{"a":1}');
    expect(jsonPrefix('{"a": nullx}')).toBe('{"a":');
    expect(jsonPrefix('')).toBe('');
    // A number alone never shows whole: more digits may always follow (arguments are objects).
    expect(jsonPrefix('42')).toBe('');
  });
});
