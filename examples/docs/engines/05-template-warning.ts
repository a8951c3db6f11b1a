// docs/engines.md, "Tool-call formats": the model's own config names another
// conversation template than tabagent's table (here Llama 3.2 shipped with
// Llama 3's template, which has no tool role): the config wins, and the app
// hears of it once.
import { createAgent } from 'tabagent';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript(['Hello!'], { template: 'llama-3' });
const warnings: string[] = [];
const console = { warn: (message: string) => warnings.push(message) };
const agent = await createAgent({});

// #region readme
// Part of examples/docs/engines/05-template-warning.ts, where `agent` comes from createAgent.
agent.on('model-warning', (w) => console.warn(w.message));
// w: { type: 'template-mismatch', modelId, config, known,
//      table: { template, family }, used: { template, family }, message }
await agent.load('Llama-3.2-1B-Instruct-q4f16_1-MLC');
agent.model?.templateMismatch?.used; // { template: 'llama-3', family: 'hermes' }
// #endregion readme

const used = agent.model?.templateMismatch?.used;
check(used?.template === 'llama-3' && used.family === 'hermes', JSON.stringify(used));
check(warnings.length === 1 && warnings[0]!.includes('llama-3'), JSON.stringify(warnings));
check((await (await agent.newChat()).send('Hi')).text === 'Hello!', 'the chat runs');
