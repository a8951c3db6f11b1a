// A `pattern` in the grammar means what ECMA-262's RegExp#test says it
// means (JSON Schema's reading): for each pattern and sample, the real
// xgrammar and our GBNF admit the JSON string exactly when the RegExp finds
// a match in it.
import { beforeAll, describe, expect, it } from 'vitest';
import { grammarAccepts, xgrammar } from '../test-support/xgrammar.js';
import { toGbnf } from './gbnf.js';
import { buildOutputConstraint } from './grammar.js';
import { grammarSchema } from './grammar-schema.js';
import { searchingPattern } from './schema-meaning.js';

beforeAll(() => xgrammar(), 60_000);

// Characters a JSON string holds unescaped only: an open end takes those (schema-meaning.ts).
const SAMPLES = ['', 'a', 'b', 'ab', 'ba', 'abc', 'xxabcxx', 'https://example.com/a?b=1&c=2', 'http://', 'ftp://x', 'x$', 'x$y', 'ac', 'bc', 'zc', '|', 'a|b', 'Zoë 😀', 'ABC-12', 'abc-12'];
const PATTERNS = ['^https?://', 'abc', '^a|b$', 'x\\$$', '^[a-z]+-[0-9]+$', '[|$]', 'a\\|b', '^$', 'é|😀', 'c$', '^(?:a|b)'];

describe('a pattern searches, in both engines', () => {
  it.each(PATTERNS)('%s', async (pattern) => {
    const format = buildOutputConstraint({ type: 'string', pattern }, 'none');
    const gbnf = { type: 'grammar' as const, grammar: toGbnf(format) };
    const wrong: string[] = [];
    for (const sample of SAMPLES) {
      const want = new RegExp(pattern, 'u').test(sample);
      const text = JSON.stringify(sample);
      if ((await grammarAccepts(format, text)) !== want) wrong.push(`xgrammar ${text}`);
      if ((await grammarAccepts(gbnf, text)) !== want) wrong.push(`GBNF ${text}`);
    }
    expect(wrong).toEqual([]);
  });

  it('anchors inside a group are read as no anchor: more is admitted, never less', async () => {
    const format = buildOutputConstraint({ type: 'string', pattern: '(^a|b)c' }, 'none');
    for (const sample of ['ac', 'xbcx', 'xac']) expect(await grammarAccepts(format, JSON.stringify(sample)), sample).toBe(true);
  });

  it('an anchored pattern is left as written; the rewrite of an open one is stable', () => {
    expect(searchingPattern('^[a-z]+$')).toBe('^[a-z]+$');
    expect(searchingPattern(searchingPattern('^https?://'))).toBe(searchingPattern('^https?://'));
    expect(grammarSchema({ type: 'string', pattern: 'x\\$$' })).toEqual({ type: 'string', pattern: '^[^"\\\\\\x00-\\x1f]*x\\$$' });
  });

  it('patternProperties keys search too', async () => {
    const format = buildOutputConstraint({ type: 'object', patternProperties: { '^x-': { type: 'integer' } }, additionalProperties: false }, 'none');
    expect(await grammarAccepts(format, '{"x-rate": 1}')).toBe(true);
    expect(await grammarAccepts({ type: 'grammar', grammar: toGbnf(format) }, '{"x-rate": 1}')).toBe(true);
    expect(await grammarAccepts(format, '{"rate": 1}')).toBe(false);
  });
});
