// The layering of src/ (docs/architecture.md), checked from the imports alone
// by scripts/check-layers.mjs; `npm test` fails when an import points up.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, without declarations
import { violations } from '../scripts/check-layers.mjs';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), code);
  }
  return root;
}

describe('layers', () => {
  it('every import in src/ points down', () => {
    expect(violations()).toEqual([]);
  });

  it('finds an import that points up, one between siblings, and one in a dynamic import(); tests may import anything', () => {
    const root = tree({
      'shared/types.ts': 'export type A = 1;',
      'errors/error.ts': "import type { Step } from '../agent/step.js';\nexport type E = Step;",
      'store/store.ts': "import type { A } from '../shared/types.js';\nexport const s = () => import('../model/model.js');",
      'model/model.ts': "export { x } from '../store/store.js';",
      'agent/step.ts': "import { s } from '../store/store.js';\nexport type Step = typeof s;",
      'agent/step.test.ts': "import '../testing/fake.js';",
      'testing/fake.ts': 'export {};',
    });
    expect(violations(root)).toEqual([
      'src/errors/error.ts → src/agent/step.ts (errors may not import agent)',
      'src/model/model.ts → src/store/store.ts (model may not import store)',
      'src/store/store.ts → src/model/model.ts (store may not import model)',
    ]);
  });
});
