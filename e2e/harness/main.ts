// Puts tabagent on window so Playwright tests can drive it with page.evaluate.
import { z } from 'zod';
import * as tabagent from '../../src/index.js';
import * as testing from '../../src/testing/index.js';

// A real AI SDK provider for server models (e2e/server-model.spec.ts), in its own chunk.
const openaiCompatible = () => import('@ai-sdk/openai-compatible');
const api = { ...tabagent, ...testing, z, openaiCompatible };
declare global {
  interface Window {
    tabagent: typeof api;
  }
}
window.tabagent = api;
document.getElementById('status')!.textContent = 'ready';
