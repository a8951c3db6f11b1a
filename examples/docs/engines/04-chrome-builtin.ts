// docs/engines.md, "Chrome's built-in model": ask for it, and hear why not
// where the browser has none (Node here, and the tests' Chromium: no Prompt
// API, so the start fails with EngineUnavailableError before anything loads);
// then a chain that skips it for a WebLLM model (the fake, under test).
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

const printed: unknown[] = [];
const console = { log: (value: unknown) => void printed.push(value) };

// #region readme
import { createAgent, isEngineUnavailableError } from 'tabagent';
try {
  const agent = await createAgent({ model: 'chrome-builtin', onProgress: (p) => console.log(p.progress) }); // the browser's own download, if it must
  const info = await agent.ready; // { engine: 'prompt-api', host: 'page', contextWindow: the session's, … }
  console.log(info.contextWindow);
} catch (error) {
  if (isEngineUnavailableError(error)) console.log(error.reason); // no Prompt API here, or its model is 'unavailable'
}
// #endregion readme

check(printed.length === 1 && typeof printed[0] === 'string', JSON.stringify(printed));

useFakeScript(['Hello from WebLLM.']);
const chained = await createAgent({ storage: false });
const skipped: string[] = [];
chained.on('model-warning', (w) => void (w.type === 'engine-skipped' && skipped.push(w.engine)));
const info = await chained.load('chrome-builtin', { fallback: ['Qwen2.5-0.5B-Instruct-q4f16_1-MLC'] });
check(info.modelId === 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', 'the chain went on to the WebLLM model');
check(JSON.stringify(skipped) === '["prompt-api"]', JSON.stringify(skipped));
check((await (await chained.newChat()).send('hi')).text === 'Hello from WebLLM.', 'the WebLLM model answers');
