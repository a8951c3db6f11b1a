// docs/engines.md, "Models without a GPU": WebLLM where WebGPU runs it, else a GGUF on
// the CPU; a GGUF of your own by URL or file. (Under test the fake stands in
// for WebLLM; the file is the tests' tiny GGUF, which the browser runs on the
// real CPU engine and Node, which has none, on a fake.)
import { check, ggufFile, useFakeScript } from '../../../src/test-support/readme-model.js';

const printed: string[] = [];
const console = { log: (...values: unknown[]) => void printed.push(values.join(' ')) };
useFakeScript([]);
const picked = await ggufFile('my-model.gguf'); // from an <input type="file">

// #region readme
// Part of examples/docs/engines/03-models-without-a-gpu.ts, where `picked` is a File the person chose.
import { createAgent, isModelCached } from 'tabagent';
const agent = await createAgent({
  model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', // WebLLM, on WebGPU where this browser has it…
  fallback: 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF', // …else this GGUF on the CPU (a curated id, or { gguf, contextSize })
});
const info = await agent.ready;
console.log(info.engine, info.threads); // 'webllm', or 'wllama' and the CPU threads it runs on

const url = 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q8_0.gguf';
await isModelCached({ gguf: url }); // downloaded once, then read from the browser's cache
await agent.load({ gguf: picked, contextSize: 8192 }); // or a file the person picked: nothing is downloaded
// #endregion readme

check(printed.length === 1, JSON.stringify(printed));
check(agent.model.modelId === 'my-model', agent.model.modelId);
