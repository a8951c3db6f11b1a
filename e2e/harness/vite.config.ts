// The page Playwright tests drive: a production build, so tests load what a
// user's build would (worker emitted as its own file, WebLLM split out of it).
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { xgrammarNodeStubs } from '../../scripts/vite-xgrammar-stubs.mjs';

/** Serves any file with the Content-Security-Policy its `?csp=` names: a worker script's own policy (a shared worker's is not the page's). */
function cspFromQuery(): Plugin {
  return {
    name: 'csp-from-query',
    configurePreviewServer(server) {
      server.middlewares.use((request, response, next) => {
        const csp = new URL(request.url ?? '/', 'http://localhost').searchParams.get('csp');
        if (csp) response.setHeader('Content-Security-Policy', csp);
        next();
      });
    },
  };
}

export default defineConfig({
  root: 'e2e/harness',
  plugins: [cspFromQuery()],
  // A missing file is a 404, as on a real host (not the page, as a single-page app's fallback would serve).
  appType: 'mpa',
  worker: { format: 'es', plugins: () => [xgrammarNodeStubs()] },
  build: {
    outDir: '../../dist/e2e',
    emptyOutDir: true,
    target: 'es2022',
    // The page most specs drive, the AI SDK's (e2e/ai-sdk.spec.ts): tabagent/ai-sdk with `ai` and React, and the Prompt API stand-in's (e2e/prompt-api.spec.ts).
    rolldownOptions: { input: ['index.html', 'ai-sdk.html', 'prompt-api.html'].map((page) => fileURLToPath(new URL(page, import.meta.url))) },
  },
  preview: { port: 4173, strictPort: true },
});
