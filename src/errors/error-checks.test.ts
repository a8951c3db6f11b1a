// Errors are told apart by `code` (the isX guards), never by `instanceof`: the
// prebuilt engine files, the worker and the page each carry their own copy of
// these classes, so an error from another bundle is never an instance of ours
// (issue 27: `fallback` never fell back in the installed package).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as errors from './index.js';

const SRC = new URL('..', import.meta.url).pathname;
const classes = Object.entries(errors)
  .filter(([, value]) => typeof value === 'function' && /^class /.test(String(value)) && (value as { prototype: unknown }).prototype instanceof Error)
  .map(([name]) => name);

describe('error checks', () => {
  it('finds the error classes', () => {
    expect(classes).toContain('WebGPUUnavailableError');
    expect(classes.length).toBeGreaterThan(30);
  });

  it('no source outside tests checks a tabagent error with instanceof', () => {
    const found: string[] = [];
    const pattern = new RegExp(`instanceof\\s+(${classes.join('|')})\\b`);
    for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      readFileSync(join(SRC, file), 'utf8')
        .split('\n')
        .forEach((line, i) => pattern.test(line) && found.push(`src/${file}:${i + 1}: ${line.trim()}`));
    }
    expect(found, 'use the isX guard (it checks `code`) instead').toEqual([]);
  });
});
