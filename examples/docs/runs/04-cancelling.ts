// docs/runs.md, "Cancelling": the send rejects with AbortError and
// the chat stays usable.
import { createAgent } from 'tabagent';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

useFakeScript(['Hello again.']);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const chat = await agent.newChat();
const logged: string[] = [];
const log = (line: string) => void logged.push(line);

// #region readme
// Part of examples/docs/runs/04-cancelling.ts, which defines `chat` and `log`.
const stop = new AbortController();
const sending = chat.send('Tell me about Oslo', { signal: stop.signal }); // or sendStream(…, { signal })
stop.abort();
await sending.catch((error) => log(error.name)); // 'AbortError'
// #endregion readme

check(logged.join() === 'AbortError', JSON.stringify(logged));
check((await chat.send('Hello?')).text === 'Hello again.', 'the next send works');
