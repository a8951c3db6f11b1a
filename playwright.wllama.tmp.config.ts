import { defineConfig } from '@playwright/test';
const args = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
export default defineConfig({
  testDir: 'e2e', testMatch: /(wllama|zz-probe)\.spec/, outputDir: '/tmp/pw/out', timeout: 60_000, workers: 2, reporter: [['list']],
  use: { baseURL: 'http://127.0.0.1:4173', headless: true, launchOptions: { executablePath: '/usr/bin/chromium', args } },
  webServer: [{ command: 'npx vite preview --config e2e/harness/vite.config.ts --host 127.0.0.1', url: 'http://127.0.0.1:4173', reuseExistingServer: true }, { command: 'npx vite preview --config e2e/harness/vite.isolated.config.ts --host 127.0.0.1', url: 'http://127.0.0.1:4181', reuseExistingServer: true }],
});
