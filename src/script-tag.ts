// The script-tag build: one global, `TabAgent`, with everything a page needs
// to define typed tools without a bundler (`TabAgent.z` is zod). The worker
// is found next to this script, also when the script is served from a CDN.
import { z } from 'zod';
import { createAgentWith } from './agent/create-agent.js';
import { modelCacheWith } from './model/model-cache.js';
import { workerAt, type WorkerLauncher } from './model/open-worker.js';

// Read now: document.currentScript is only set while this script first runs.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src || location.href;

// A strict Content-Security-Policy forbids eval; zod would only probe for it,
// but even the probe is reported as a violation.
z.config({ jitless: true });

const launch: WorkerLauncher = (workerUrl, shared) => workerAt(workerUrl ?? new URL('tabagent-worker.js', scriptUrl), shared);

export const createAgent = createAgentWith(launch);
export const { isModelCached, deleteCachedModel } = modelCacheWith(launch);
export { z };
export { listModels } from './model/list-models.js';
export { tool, rawTool } from './tools/define-tool.js';
export { hopCountIs, hasToolCall } from './run/stop-conditions.js';
export * from './errors/index.js';
