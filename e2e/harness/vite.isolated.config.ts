// The same built harness, served cross-origin isolated (COOP/COEP), as an app
// serves itself to give wllama its threads (SharedArrayBuffer needs it).
import { defineConfig, mergeConfig } from 'vite';
import harness from './vite.config.js';

const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default mergeConfig(harness, defineConfig({ preview: { port: 4181, strictPort: true, headers: isolation } }));
