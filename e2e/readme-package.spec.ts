// The examples of README.md and the guides (scripts/doc-examples.mjs) against
// the package as installed: each one, unchanged, in a fresh app built by Vite
// from the packed tarball (scripts/readme-app.mjs, served on 4182), in a page
// of its own. src/readme.test.ts runs the same
// files from source in Node. An example passes when it ends with its own
// checks passing and every fake its hidden part registered used up.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { DOC_EXAMPLES, exampleFiles } from '../scripts/doc-examples.mjs';
import { startMcpOAuthTestServer } from './support/mcp-oauth-server.mjs';
import { startMcpTaskServer } from './support/mcp-task-server.mjs';
import { startMcpTestServer } from './support/mcp-server.mjs';
import { startChatServer } from './support/chat-server.mjs';

const ROOT = new URL('../', import.meta.url);
/** The servers hidden parts start in Node; here the spec starts them (the page cannot), and the page's stand-ins reach them. */
const SERVERS = { 'mcp-server': startMcpTestServer, 'mcp-task-server': startMcpTaskServer, 'mcp-oauth-server': startMcpOAuthTestServer, 'chat-server': startChatServer };
type ServerName = keyof typeof SERVERS;

const examples = DOC_EXAMPLES.flatMap(({ examples: folder }) => exampleFiles(ROOT, folder).map((file) => `${folder}/${file}`));

for (const example of examples) {
  test(example, async ({ page }) => {
    // The real engines start in the worker: WebLLM's cache for engines/01, wllama on the tiny GGUF for engines/03.
    test.setTimeout(90_000);
    const source = readFileSync(new URL(example, ROOT), 'utf8');
    const needed = [...source.matchAll(/from '(?:\.\.\/)+e2e\/support\/([\w-]+)\.mjs'/g)].map(([, name]) => name as ServerName);
    const started = await Promise.all(needed.map((name) => SERVERS[name]()));
    try {
      const servers = Object.fromEntries(started.map((server, i) => [needed[i], { origin: server.origin, url: server.url, ...('issuer' in server ? { issuer: server.issuer } : {}) }]));
      // A page cannot read a cross-origin redirect; Node reads it, as the hidden part does there.
      await page.exposeFunction('readmeFollowRedirect', async (url: string) => (await fetch(url, { redirect: 'manual' })).headers.get('location'));
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const query = new URLSearchParams({ example, servers: JSON.stringify(servers) });
      await page.goto(`http://127.0.0.1:4182/?${query}`);
      await expect(page.locator('#status')).not.toHaveText('loading', { timeout: 80_000 });
      expect(await page.locator('#status').textContent()).toBe('ok');
      expect(errors).toEqual([]);
    } finally {
      await Promise.all(started.map((server) => server.close()));
    }
  });
}
