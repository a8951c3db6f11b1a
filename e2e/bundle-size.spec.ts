// The page entry's budget (docs/performance.md): what an app loads at
// createAgent, built as an app's bundler builds the published package, is at
// most 30 kB gzipped. Deterministic, so it is a test; timings are not (bench).
import { expect, test } from '@playwright/test';
import { PAGE_ENTRY_BUDGET_KB, buildSizeEntry, pageEntry } from '../scripts/bundle-size.mjs';

test(`what an app loads at createAgent is at most ${PAGE_ENTRY_BUDGET_KB} kB gzipped`, async () => {
  test.setTimeout(120_000);
  buildSizeEntry();
  const { kb, files } = pageEntry();
  expect(kb, `the entry and its static imports: ${files.map((f) => f.split('/').pop()).join(', ')}`).toBeLessThanOrEqual(PAGE_ENTRY_BUDGET_KB);
});
