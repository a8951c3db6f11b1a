// The package as a user gets it: `npm pack` (its prepack builds dist/), then a
// fresh app outside this repository (so nothing resolves from our own
// node_modules) installs the tarball with zod, and is built from
// e2e/packed-app/ by each bundler with its default configuration:
//   Vite (no config file)                         → dist/packed-apps/vite
//   webpack 5 (mode, entry, output; no minifying) → dist/packed-apps/webpack
// e2e/package.spec.ts serves and opens both, starts Vite's dev server on
// the app, and type-checks it against the packed declarations. That app
// installs nothing of the AI SDK; a second one (e2e/packed-ai-sdk-app)
// installs the tarball with `ai` and uses tabagent/ai-sdk, built by Vite
// into dist/packed-apps/vite/ai-sdk/.
// Usage: node scripts/packed-apps.mjs (npm run build:packed-apps)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Told apart per checkout, so two checkouts never share an installed app. */
const checkout = createHash('sha256').update(root).digest('hex').slice(0, 8);
/** The installed app: e2e/packed-app's files, the tarball, and its node_modules. */
export const PACKED_APP_DIR = join(tmpdir(), `tabagent-packed-app-${checkout}`);
/** Where the builds go, to be served: `vite/` and `webpack/`. */
export const PACKED_APPS_OUT = join(root, 'dist/packed-apps');
/** The app on tabagent/ai-sdk, with the AI SDK installed beside the tarball. */
export const PACKED_AI_SDK_APP_DIR = join(tmpdir(), `tabagent-packed-ai-sdk-app-${checkout}`);
/** webpack is no dependency of ours: the app takes this one from the registry. */
const WEBPACK_VERSION = '5.112.2';
/** Nor is @types/json-schema, which the AI SDK's declarations name. */
const JSON_SCHEMA_TYPES_VERSION = '7.0.15';

export const ownVersion = (name) => createRequire(join(root, 'package.json'))(`${name}/package.json`).version;
export const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });

export function buildPackedApps() {
  const app = PACKED_APP_DIR;
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  const [{ filename }] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', app], root));
  cpSync(join(root, 'e2e/packed-app'), app, { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'tabagent-packed-app',
      private: true,
      type: 'module',
      // zod and Vite at the versions this repository tests with (npm ci has them cached).
      dependencies: { tabagent: `file:./${filename}`, zod: ownVersion('zod') },
      devDependencies: { vite: ownVersion('vite'), webpack: WEBPACK_VERSION },
    }),
  );
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);

  const out = PACKED_APPS_OUT;
  rmSync(out, { recursive: true, force: true });
  run(join(app, 'node_modules/.bin/vite'), ['build', '--outDir', join(out, 'vite'), '--emptyOutDir'], app);

  // webpack reads JavaScript: the app's TypeScript, types stripped (the spec checks them).
  run(join(root, 'node_modules/.bin/tsc'), ['-p', app, '--noCheck', '--noEmit', 'false', '--outDir', join(app, 'webpack-src')], app);
  const webpackOut = join(out, 'webpack');
  // Defaults but for minimizing: webpack would minify the worker's 7 MB of
  // already minified files again (it works, checked by hand, but takes ~15 s).
  const config = { mode: 'production', entry: './webpack-src/main.js', output: { path: webpackOut }, optimization: { minimize: false } };
  run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import webpack from 'webpack';
webpack(${JSON.stringify(config)}, (error, stats) => {
  if (error || stats.hasErrors()) { console.error(error ?? stats.toString('errors-only')); process.exit(1); }
});`,
    ],
    app,
  );
  // The same page, loading webpack's bundle (a classic script) instead of the module.
  const page = readFileSync(join(app, 'index.html'), 'utf8');
  const html = page.replace('<script type="module" src="./main.ts"></script>', '<script src="./main.js"></script>');
  if (html === page) throw new Error('e2e/packed-app/index.html no longer loads ./main.ts as expected');
  writeFileSync(join(webpackOut, 'index.html'), html);
  buildAiSdkApp(join(app, filename));
}

/** The AI SDK app: the same tarball, `ai` at the version this repository tests with, built by Vite under /ai-sdk/. */
function buildAiSdkApp(tarball) {
  const app = PACKED_AI_SDK_APP_DIR;
  rmSync(app, { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  cpSync(tarball, join(app, 'tabagent.tgz'));
  cpSync(join(root, 'e2e/packed-ai-sdk-app'), app, { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'tabagent-packed-ai-sdk-app',
      private: true,
      type: 'module',
      dependencies: { tabagent: 'file:./tabagent.tgz', ai: ownVersion('ai'), zod: ownVersion('zod') },
      // The AI SDK's declarations need these to type-check with skipLibCheck off.
      devDependencies: { vite: ownVersion('vite'), '@types/node': ownVersion('@types/node'), '@types/json-schema': JSON_SCHEMA_TYPES_VERSION },
    }),
  );
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
  run(join(app, 'node_modules/.bin/vite'), ['build', '--base', '/ai-sdk/', '--outDir', join(PACKED_APPS_OUT, 'vite/ai-sdk'), '--emptyOutDir'], app);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildPackedApps();
