// docs/engines.md, "Choosing a model": before any download, from the
// list, with the store working meanwhile. (Under test: no WebGPU, no caches.)
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript([]);
const offer = (choices: Array<{ id: string; label: string }>) => choices[0]!.id; // your picker
const formatBytes = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

// #region readme
// Part of examples/docs/engines/02-choosing-a-model.ts, which defines `offer` (your picker) and `formatBytes`.
import { createAgent, listModels } from 'tabagent';
const agent = await createAgent({ storage: { dbName: 'my-app' } }); // no model yet: chats work at once
const models = await listModels(); // or agent.models(): no worker starts, WebLLM is not loaded
const choices = models
  .filter((m) => m.runnable !== false && m.lowResource)
  .map((m) => ({ id: m.id, label: `${m.base} · ${m.vramMB ?? '?'} MB VRAM · ${m.contextWindow} tokens${m.cached ? ' · downloaded' : ''}${m.downloadBytes ? ` · ${formatBytes(m.downloadBytes)}` : ''}` }));
const picked = offer(choices.length ? choices : models.map((m) => ({ id: m.id, label: m.id })));
await agent.load(picked, { onProgress: (p) => console.log(p.phase, p.loaded, p.total) });
// #endregion readme

check(models.filter((m) => m.engine === 'webllm').length === 161 && models.filter((m) => m.engine === 'wllama').length === 9, String(models.length));
check(agent.modelState === 'ready' && agent.model.modelId === picked, agent.modelState);
