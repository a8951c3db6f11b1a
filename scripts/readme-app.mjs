// The documents' examples as a user runs them: against the package as
// installed. A fresh app outside this repository (one per checkout, beside
// the packed app) installs the tarball scripts/packed-apps.mjs packed, with
// zod and Vite; it holds e2e/readme-app/ (the page, and the browser's versions
// of what the examples' hidden parts import, at the paths they import them
// from) and every folder of examples scripts/doc-examples.mjs lists (README's
// and the guides'), copied in unchanged. Vite builds it with no config file into
// dist/readme-app, and the tests' tiny GGUF goes beside it (examples/docs/engines/03 loads it).
// e2e/readme-package.spec.ts serves it (port 4182) and runs each example.
// Usage: node scripts/readme-app.mjs (npm run build:readme-app), after npm run build:packed-apps.
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOC_EXAMPLES } from './doc-examples.mjs';
import { ownVersion, PACKED_APP_DIR, run } from './packed-apps.mjs';
import { tinyGguf } from './tiny-gguf.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
export const README_APP_DIR = join(tmpdir(), `tabagent-readme-app-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`);
export const README_APP_OUT = join(root, 'dist/readme-app');

export async function buildReadmeApp() {
  // One pack per run of the e2e builds (it builds the whole package): the packed app's.
  const tarball = readdirSync(PACKED_APP_DIR, { withFileTypes: true }).find((f) => f.isFile() && /^tabagent-.*\.tgz$/.test(f.name))?.name;
  if (!tarball) throw new Error(`No tarball in ${PACKED_APP_DIR}: run npm run build:packed-apps first`);
  const app = README_APP_DIR;
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  copyFileSync(join(PACKED_APP_DIR, tarball), join(app, tarball));
  cpSync(join(root, 'e2e/readme-app'), app, { recursive: true });
  for (const { examples } of DOC_EXAMPLES) cpSync(join(root, examples), join(app, examples), { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'tabagent-readme-app',
      private: true,
      type: 'module',
      // The AI SDK too, for the examples of tabagent/ai-sdk, as an app using it installs it.
      dependencies: { tabagent: `file:./${tarball}`, zod: ownVersion('zod'), ai: ownVersion('ai'), '@ai-sdk/openai-compatible': ownVersion('@ai-sdk/openai-compatible'), '@ai-sdk/react': ownVersion('@ai-sdk/react'), react: ownVersion('react') },
      devDependencies: { vite: ownVersion('vite') },
    }),
  );
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
  run(join(app, 'node_modules/.bin/vite'), ['build', '--outDir', README_APP_OUT, '--emptyOutDir'], app);
  await tinyGguf(join(README_APP_OUT, 'models/tiny-qwen3.gguf'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildReadmeApp();
