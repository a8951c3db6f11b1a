// The side panel extension (`npm run build:extension`, output in
// dist/extension: load it unpacked). Two entries: the panel's page, and the
// service worker, whose file name manifest.json names, so it is not hashed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { xgrammarNodeStubs } from '../../scripts/vite-xgrammar-stubs.mjs';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** manifest.json goes into the build as it is: it names built files (background.js, sidepanel.html), not sources. */
function copyManifest(): Plugin {
  return {
    name: 'tabagent-extension:manifest',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'manifest.json', source: readFileSync(here('manifest.json'), 'utf8') });
    },
  };
}

export default defineConfig({
  root: 'examples/extension',
  // Relative URLs: the extension's files are served from chrome-extension://<id>/.
  base: './',
  // The tabagent worker splits WebLLM into its own chunk, which needs ES module workers.
  worker: { format: 'es', plugins: () => [xgrammarNodeStubs()] },
  plugins: [copyManifest()],
  build: {
    outDir: '../../dist/extension',
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input: { sidepanel: here('sidepanel.html'), background: here('src/background.ts') },
      output: { entryFileNames: (chunk) => (chunk.name === 'background' ? 'background.js' : 'assets/[name]-[hash].js') },
    },
  },
});
