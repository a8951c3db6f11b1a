import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // The documents' examples (examples/readme, examples/docs; run by
    // src/readme.test.ts) import the package by name: give them a shim that
    // runs their fake model in this thread. Only these exact specifiers; nothing in src imports them.
    alias: [
      { find: /^tabagent$/, replacement: here('./src/test-support/readme-tabagent.ts') },
      { find: /^tabagent\/testing$/, replacement: here('./src/testing/index.ts') },
      { find: /^tabagent\/ai-sdk$/, replacement: here('./src/test-support/readme-ai-sdk.ts') },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'examples/*/src/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/test-support/node-globals.ts'],
    // xgrammar, read by the tests as an oracle for our GBNF, warns (with the
    // path of the machine it was built on) that it reads "no character at
    // all", [^\u0000-\U0010FFFF], as [^\x00-\x7F]; llama.cpp, which the GBNF
    // is for, reads it as written (src/protocol/gbnf.test.ts). Expected, so not shown.
    onConsoleLog: (log) => !/^\[WARNING\] \S*grammar_functor\.cc:\d+: Negative Character class contains byte greater than 127/.test(log),
  },
});
