// The layering of src/ (docs/architecture.md), checked from the imports alone
// by scripts/check-layers.mjs; `npm test` fails when an import points up, or
// when files import each other in a circle.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, without declarations
import { cycles, violations } from '../scripts/check-layers.mjs';

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

  it('no files in src/ import each other in a circle, but for the allowed dynamic imports', () => {
    expect(cycles()).toEqual([]);
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

  it('finds files that import each other in a circle, through type-only and dynamic imports too; an allowed edge must be a dynamic import', () => {
    const root = tree({
      'store/a.ts': "import { b } from './b.js';\nexport const a = b;",
      'store/b.ts': "import type { C } from './c.js';\nexport const b: C = 1;",
      'store/c.ts': "export type C = 1;\nexport const load = () => import('./a.js');",
      'store/a.test.ts': "import { a } from './a.js';\nexport const t = a;",
      'worker/engine.ts': "export interface Modules {\n  impl(): Promise<typeof import('./impl.js')>;\n}",
      'worker/impl.ts': "import type { Modules } from './engine.js';\nexport type M = Modules;",
      'worker/x.ts': "import { y } from './y.js';\nexport const x = () => y;",
      'worker/y.ts': "export { x as y } from './x.js';",
    });
    expect(cycles(root, [])).toEqual([
      'src/store/a.ts → src/store/b.ts → src/store/c.ts → src/store/a.ts',
      'src/worker/engine.ts → src/worker/impl.ts → src/worker/engine.ts',
      'src/worker/x.ts → src/worker/y.ts → src/worker/x.ts',
    ]);
    expect(
      cycles(root, [
        ['worker/engine.ts', 'worker/impl.ts'],
        ['worker/x.ts', 'worker/y.ts'],
      ]),
    ).toEqual([
      'allowed, but no dynamic import: src/worker/x.ts → src/worker/y.ts',
      'src/store/a.ts → src/store/b.ts → src/store/c.ts → src/store/a.ts',
      'src/worker/x.ts → src/worker/y.ts → src/worker/x.ts',
    ]);
  });
});
