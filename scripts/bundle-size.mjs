// What an app loads at `createAgent`, weighed as an app's build makes it:
// bench/size-entry.ts built by bench/size.config.ts (minified, zod left out),
// then the entry and the chunks it imports statically, gzipped. The bench
// reports it; e2e/bundle-size.spec.ts holds it to its budget in `npm test`.
// Needs the package built (dist/esm).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
/** Where bench/size.config.ts writes the app build. */
export const SIZE_BUILD = join(root, 'dist/bench-size');
/** The page entry's budget, in kB gzipped (docs/performance.md). */
export const PAGE_ENTRY_BUDGET_KB = 30;

export function buildSizeEntry() {
  execFileSync('npx', ['vite', 'build', '--config', 'bench/size.config.ts', '--logLevel', 'error'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

export function gzipKb(file) {
  return gzipSync(readFileSync(file), { level: 9 }).length / 1024;
}

/** A module and every file it imports statically (`import … from "./x.js"`, not `import("./x.js")`), transitively. */
export function staticClosure(file, seen = []) {
  if (seen.includes(file)) return seen;
  seen.push(file);
  for (const [, name] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*"(\.\/[^"]+\.js)"/g)) staticClosure(join(file, '..', name), seen);
  return seen;
}

/** The files an app loads at createAgent, and their gzipped kB. */
export function pageEntry() {
  const files = staticClosure(join(SIZE_BUILD, 'page.js'));
  return { files, kb: files.reduce((n, f) => n + gzipKb(f), 0) };
}

/**
 * The package as an install gets it: the tarball `npm pack` makes, and what
 * `npm install` of it puts in a fresh app's node_modules (tabagent and its
 * dependencies; zod, the app's own peer, left out). In MB.
 */
export function packageSizes() {
  const dir = mkdtempSync(join(tmpdir(), 'tabagent-install-'));
  try {
    const [{ filename, size, unpackedSize }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'install-size', private: true, dependencies: { tabagent: `file:../${filename}` } }));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app, stdio: 'ignore' });
    const modules = join(app, 'node_modules');
    const installed = readdirSync(modules, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !join(e.parentPath, e.name).startsWith(join(modules, 'zod')))
      .reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);
    const packages = readdirSync(modules).filter((n) => !n.startsWith('.') && n !== 'zod');
    return { tarballMb: size / 1e6, unpackedMb: unpackedSize / 1e6, installedMb: installed / 1e6, installedPackages: packages.flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n])) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
