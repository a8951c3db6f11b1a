// Builds bench/size-entry.ts the way an app's bundler would (minified, the
// worker and its engines emitted as files of their own in assets/), to weigh
// the page side of the package. An app build, not library mode: library mode
// would inline the worker's files into the page as data URLs.
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist/bench-size',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    rolldownOptions: {
      input: 'bench/size-entry.ts',
      external: (id) => id === 'zod' || id.startsWith('zod/'),
      output: { entryFileNames: 'page.js', chunkFileNames: '[name]-[hash].js' },
    },
  },
});
