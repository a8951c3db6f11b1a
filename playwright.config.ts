import { defineConfig } from '@playwright/test';
import { findChromium } from './scripts/find-chromium.mjs';

const executablePath = (await findChromium()) ?? undefined;
// As root Chromium needs --no-sandbox; the rest keep it off a network it cannot reach.
const args = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  timeout: 30_000,
  fullyParallel: true,
  workers: 2,
  reporter: [['list']],
  use: { baseURL: 'http://127.0.0.1:4173', headless: true },
  webServer: [
    { command: 'npx vite preview --config e2e/harness/vite.config.ts --host 127.0.0.1', url: 'http://127.0.0.1:4173', reuseExistingServer: !process.env.CI },
    // The same harness, cross-origin isolated (COOP/COEP): wllama may run on several threads there.
    { command: 'npx vite preview --config e2e/harness/vite.isolated.config.ts --host 127.0.0.1', url: 'http://127.0.0.1:4181', reuseExistingServer: !process.env.CI },
    { command: 'npx vite preview --host 127.0.0.1 --port 4174 --strictPort', url: 'http://127.0.0.1:4174', reuseExistingServer: !process.env.CI },
    { command: 'npx vite preview --config examples/pwa/vite.config.ts --host 127.0.0.1 --port 4175 --strictPort', url: 'http://127.0.0.1:4175', reuseExistingServer: !process.env.CI },
    // The script tag: pages on one origin, the bundle on another (a stand-in CDN with CORS).
    { command: 'node e2e/support/static-server.mjs --port 4176 --root . --rewrite ../../dist/script-tag/=http://127.0.0.1:4177/', url: 'http://127.0.0.1:4176/examples/script-tag/', reuseExistingServer: !process.env.CI },
    { command: 'node e2e/support/static-server.mjs --port 4177 --root dist/script-tag --cors', url: 'http://127.0.0.1:4177/tabagent.js', reuseExistingServer: !process.env.CI },
    // A real MCP server (the official SDK's), on another origin than the pages, with CORS.
    { command: 'node e2e/support/mcp-server.mjs --port 4191', url: 'http://127.0.0.1:4191/state', reuseExistingServer: !process.env.CI },
    // A server whose tools are called as tasks (the SDK's task runtime), for reloads in the middle of one.
    { command: 'node e2e/support/mcp-task-server.mjs --port 4194', url: 'http://127.0.0.1:4194/state', reuseExistingServer: !process.env.CI },
    // The same behind OAuth: the MCP server on 4192, its authorization server (the MCP SDK's) on 4193.
    { command: 'node e2e/support/mcp-oauth-server.mjs --port 4192 --auth-port 4193', url: 'http://127.0.0.1:4192/state', reuseExistingServer: !process.env.CI },
    // The app that installs the packed tarball (scripts/packed-apps.mjs), as Vite and as webpack built it.
    { command: 'node e2e/support/static-server.mjs --port 4178 --root dist/packed-apps/vite', url: 'http://127.0.0.1:4178/', reuseExistingServer: !process.env.CI },
    { command: 'node e2e/support/static-server.mjs --port 4179 --root dist/packed-apps/webpack', url: 'http://127.0.0.1:4179/', reuseExistingServer: !process.env.CI },
    // README's examples in a fresh app on the packed tarball (scripts/readme-app.mjs).
    { command: 'node e2e/support/static-server.mjs --port 4182 --root dist/readme-app', url: 'http://127.0.0.1:4182/', reuseExistingServer: !process.env.CI },
  ],
  projects: [
    { name: 'chromium', testIgnore: /(webgpu|models)\.spec/, use: { launchOptions: { executablePath, args } } },
    // A software WebGPU adapter (SwiftShader, no shader-f16): the real WebLLM checks that need no weights, the model list,
    // and `fallback` (which runs in both projects: without WebGPU, and without shader-f16).
    { name: 'webgpu', testMatch: /(webgpu|models|fallback)\.spec/, use: { launchOptions: { executablePath, args: [...args, '--enable-unsafe-webgpu'] } } },
  ],
});
