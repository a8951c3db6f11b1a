// README "A chat that survives a reload": a chat kept in IndexedDB, then
// opened again by a second agent on the same database, as the next page load
// would (e2e/persistence.spec.ts reloads real pages).
import { check, useFakeScript } from '../../src/test-support/readme-model.js';

// A page has localStorage; Node has none, so there the example gets a stand-in.
const items = new Map<string, string>();
const localStorage = globalThis.localStorage ?? { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
const printed: string[] = [];
const console = { log: (...values: unknown[]) => void printed.push(values.join(' ')) };
useFakeScript(['Hello, Ada.', 'Your name is Ada.']);

// #region readme
import { createAgent } from 'tabagent';

const model = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
const first = await createAgent({ model, storage: { dbName: 'my-app' } });
const chat = await first.newChat({ system: 'You are concise.' });
await chat.send('My name is Ada.'); // each message is in IndexedDB before send resolves
localStorage.setItem('chat', chat.id); // keep the id where your app keeps things
first.close(); // the tab closes

// The next page load (after a reload, or in a new tab): the same chat, as it was stored.
const agent = await createAgent({ model, storage: { dbName: 'my-app' } });
const again = await agent.openChat(localStorage.getItem('chat')!);
console.log(again.messages.length); // 2: the question and the answer
const reply = await again.send('What is my name?'); // the model reads the whole chat
// #endregion readme

check(printed.join() === '2', JSON.stringify(printed));
check(again.messages.length === 4 && reply.text === 'Your name is Ada.', JSON.stringify(again.messages));
