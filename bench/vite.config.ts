// The benchmark page: a production build, as users ship it.
import { defineConfig } from 'vite';
import { xgrammarNodeStubs } from '../scripts/vite-xgrammar-stubs.mjs';

export default defineConfig({
  root: 'bench/page',
  publicDir: false,
  worker: { format: 'es', plugins: () => [xgrammarNodeStubs()] },
  build: { outDir: '../../dist/bench', emptyOutDir: true, target: 'es2022' },
  // Cross-origin isolated, so performance.now() has microsecond resolution (not 100 µs).
  preview: { port: 4190, strictPort: true, headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } },
});
