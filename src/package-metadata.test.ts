// What the registry's page of the package needs: npm shows README.md there,
// and resolves its relative links (docs/…, CHANGELOG.md) against the
// package's `repository`, so without one they lead nowhere; each must name a
// file the repository has.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { repository?: { type?: string; url?: string }; homepage?: string; bugs?: { url?: string } };

describe('package.json for the registry', () => {
  it('names its GitHub repository (where README’s relative links resolve), its home page and where to report bugs', () => {
    expect(pkg.repository?.type).toBe('git');
    const repo = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(pkg.repository?.url ?? '')?.[1];
    expect(repo, String(pkg.repository?.url)).toBeDefined();
    expect(pkg.homepage).toBe(`${repo}#readme`);
    expect(pkg.bugs?.url).toBe(`${repo}/issues`);
  });

  it('README’s relative links name files of the repository', () => {
    const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:|^#/.test(t));
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.map((t) => t.split('#')[0]!).filter((path) => !existsSync(new URL(path, ROOT)))).toEqual([]);
  });
});
