// The call format a chat template teaches, from its markup; a template is a
// file's (up to 1 MiB), read in the worker before the download.
import { describe, expect, it } from 'vitest';
import { templateFamily } from './template-family.js';

describe('templateFamily', () => {
  it.each([
    ['{{ "<function=" + name + ">" }}{{ "<parameter=" }}', 'qwen3.5'],
    ['<|tool_call>call', 'gemma4'],
    ['<|tool_call|>', 'phi4-mini'],
    ['[TOOL_CALLS]name[ARGS]{}', 'ministral'],
    ['[TOOL_CALLS] [', 'mistral'],
    ['<|python_tag|>', 'llama'],
    ['<think></think><tool_call>', 'qwen3'],
    ['<tool_call>{"name"}</tool_call>', 'hermes'],
    ['{{ messages }}', undefined],
  ])('%s: %s', (template, family) => {
    expect(templateFamily(template)).toBe(family);
  });

  it('a marker must come after the one it follows: <parameter= before <function= is not Qwen3.5', () => {
    expect(templateFamily('<parameter=x><function=y><tool_call>')).toBe('hermes');
  });

  it('a 400 KB template of repeated "<function=" is read in one pass (a backtracking regex took 12.5 s)', () => {
    expect(templateFamily(`${'<function='.repeat(40_000)}<tool_call>`)).toBe('hermes');
  });
});
