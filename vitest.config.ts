import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // README examples (examples/readme, run by src/readme.test.ts) import the
    // package by name: give them a shim that runs their fake model in this
    // thread. Only these exact specifiers; nothing in src imports them.
    alias: [
      { find: /^tabagent$/, replacement: here('./src/test-support/readme-tabagent.ts') },
      { find: /^tabagent\/testing$/, replacement: here('./src/testing/index.ts') },
      { find: /^tabagent\/ai-sdk$/, replacement: here('./src/test-support/readme-ai-sdk.ts') },
    ],
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/test-support/node-globals.ts'],
  },
});
