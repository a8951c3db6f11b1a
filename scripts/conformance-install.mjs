// Installs the official MCP conformance suite (e2e/conformance: its own
// package and lockfile) from the npm registry, with the Node 22 it needs: the
// `node` package there brings a Node binary shipped in a registry package
// (node-<os>-<arch>), so a fresh machine needs nothing but npm. Kept apart from
// the project's node_modules, whose .bin would otherwise run every script of
// the project on that Node. Skipped when what is installed matches the lockfile.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONFORMANCE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'e2e', 'conformance');
/** The Node the suite runs on, and the suite's entry. */
export const CONFORMANCE_NODE = join(CONFORMANCE_DIR, 'node_modules', '.bin', 'node');
export const CONFORMANCE_CLI = join(CONFORMANCE_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

function installed() {
  const lock = JSON.parse(readFileSync(join(CONFORMANCE_DIR, 'package-lock.json'), 'utf8')).packages;
  for (const name of ['@modelcontextprotocol/conformance', 'node']) {
    const at = join(CONFORMANCE_DIR, 'node_modules', name, 'package.json');
    if (!existsSync(at) || JSON.parse(readFileSync(at, 'utf8')).version !== lock[`node_modules/${name}`]?.version) return false;
  }
  try {
    return execFileSync(CONFORMANCE_NODE, ['--version'], { encoding: 'utf8' }).trim() === `v${lock['node_modules/node'].version}`;
  } catch {
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (installed()) {
    console.log('MCP conformance suite: installed');
  } else {
    console.log('MCP conformance suite: npm ci --prefix e2e/conformance (with Node 22 from the registry)…');
    execFileSync('npm', ['ci', '--prefix', CONFORMANCE_DIR, '--no-audit', '--no-fund'], { stdio: 'inherit' });
    if (!installed()) throw new Error('the MCP conformance suite did not install as its lockfile says');
  }
}
