// Vitest setup: @mlc-ai/web-xgrammar is a UMD build that, outside a browser,
// reaches for CommonJS's require and __filename. Give it both, so the fake
// engine's grammar checks run in Node as they do in the worker.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const g = globalThis as Record<string, unknown>;
g.require ??= createRequire(import.meta.url);
g.__filename ??= fileURLToPath(import.meta.resolve('@mlc-ai/web-xgrammar'));
