// The offline-capable assistant (`npm run build:pwa`, output in dist/pwa).
// vite-plugin-pwa (Workbox) writes the service worker with the precache list
// of every built file, and the web app manifest; the icons are files in
// public/icons.
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { xgrammarNodeStubs } from '../../scripts/vite-xgrammar-stubs.mjs';

/** Also index.html's theme-color. */
const BRAND = '#1f4fd1';

export default defineConfig({
  root: 'examples/pwa',
  // The tabagent worker splits WebLLM into its own chunk, which needs ES module workers.
  worker: { format: 'es', plugins: () => [xgrammarNodeStubs()] },
  plugins: [
    VitePWA({
      // A new version waits until the person says "reload" (src/service-worker-client.ts):
      // swapping it under a running page could pull chunks out from under it.
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        id: './',
        name: 'tabagent assistant',
        short_name: 'tabagent',
        description: 'An on-device assistant that keeps working offline.',
        start_url: './',
        scope: './',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: BRAND,
        icons: [
          { src: 'icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-maskable.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
          { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      // The glob below already finds the icons (public/icons is copied into the build);
      // the plugin adding them too would list each twice. It adds the manifest itself.
      includeManifestIcons: false,
      workbox: {
        // Precache names start with this, so the app's caches are told apart from WebLLM's.
        cacheId: 'tabagent-pwa',
        // Every built file, once: the shell, the chunks, the tabagent worker and its
        // WebLLM chunk (6 MB, hence the limit), wllama's engine and WebAssembly (10 MB:
        // without WebGPU the app runs a GGUF on the CPU, offline too), the icons. The
        // model's weights are not files of the app: WebLLM and wllama keep them in
        // caches of their own.
        globPatterns: ['**/*.{html,js,css,svg,png,wasm}'],
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
        // One page: every navigation gets the cached shell, which matches the cached chunks.
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
        // The first install takes the open page over, so it works offline without a reload.
        clientsClaim: true,
        // One file, sw.js: Workbox's runtime goes inside it.
        inlineWorkboxRuntime: true,
        // No runtime caching: requests to other origins (the model's downloads) go to the network untouched.
      },
    }),
  ],
  build: { outDir: '../../dist/pwa', emptyOutDir: true, target: 'es2022' },
  preview: { port: 4175, strictPort: true },
});
