// Puts tabagent on window so Playwright tests can drive it with page.evaluate.
import { z } from 'zod';
import * as tabagent from '../../src/index.js';
import * as testing from '../../src/testing/index.js';

const api = { ...tabagent, ...testing, z };
// A real AI SDK provider for server models (e2e/server-model.spec.ts), in its own chunk.
const providers = { openaiCompatible: () => import('@ai-sdk/openai-compatible') };
declare global {
  interface Window {
    tabagent: typeof api;
    providers: typeof providers;
  }
}
window.tabagent = api;
window.providers = providers;
document.getElementById('status')!.textContent = 'ready';
