// docs/engines.md, "Agents and models": start an agent whose model loads in the
// background, switch and cancel loads, restart and close; ask about the model
// cache. (In Node the cache is answered without a worker; in the browser it is
// WebLLM's own.)
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

const printed: string[] = [];
const console = { log: (...values: unknown[]) => void printed.push(values.join(' ')) };

// Every load (the second cancelled before it starts) and the restart; none generates.
useFakeScript([]);

// #region readme
import { createAgent, deleteCachedModel, isModelCached } from 'tabagent';
const agent = await createAgent({
  model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', // any WebLLM model id; it loads in the background
  onProgress: (p) => console.log(p.phase, p.loaded, p.total), // bytes, from the model's manifest
});
await agent.listChats(); // the store works at once, while the model downloads
agent.modelState; // 'loading', then 'ready' (or 'failed'; 'idle' before any load)
const info = await agent.ready; // { modelId, family, template, contextWindow, grammarByDefault }, as agent.model

const stop = new AbortController();
const switching = agent.load('Qwen2.5-0.5B-Instruct-q4f32_1-MLC', { signal: stop.signal }); // another model; chats carry on
stop.abort(); // cancel the download: the agent is back to 'idle'
await switching.catch((error) => console.log(error.name)); // AbortError
await agent.load('Qwen2.5-0.5B-Instruct-q4f32_1-MLC'); // try again
await agent.restart(); // a fresh worker (after WorkerCrashedError or DeviceLostError)
agent.close(); // stops the worker

await isModelCached('Qwen2.5-1.5B-Instruct-q4f16_1-MLC'); // downloaded already? (no agent needed)
await deleteCachedModel('Qwen2.5-1.5B-Instruct-q4f16_1-MLC'); // free the space, or clear a corrupt download
// #endregion readme

check(printed.includes('load  ') && printed.includes('AbortError'), `progress: ${JSON.stringify(printed)}`);
check(info.family === 'hermes' && info.contextWindow === 4096, JSON.stringify(info));
check(agent.model.modelId === 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', agent.model.modelId);
