// The demo app (`npm run dev`, `npm run build:demo`).
import { defineConfig } from 'vite';
import { xgrammarNodeStubs } from './scripts/vite-xgrammar-stubs.mjs';

export default defineConfig({
  root: 'demo',
  publicDir: '../public',
  // The worker splits WebLLM into its own chunk, which needs ES module workers.
  worker: { format: 'es', plugins: () => [xgrammarNodeStubs()] },
  build: { outDir: '../dist/demo', emptyOutDir: true, target: 'es2022' },
  server: { port: 5173 },
});
