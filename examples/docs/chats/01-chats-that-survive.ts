// docs/chats.md, "What is kept, and when": a chat from an earlier visit, reopened after a
// reload, regenerated, renamed, exported, deleted and imported back.
import { createAgent, rawTool, tool } from 'tabagent';
import { fakeModel, toolCallText } from 'tabagent/testing';
import { z } from 'zod';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

const weather = tool({ name: 'get_weather', description: 'Get a weather forecast', input: z.object({ location: z.string() }), run: ({ location }) => ({ location, forecast: 'sunny, 24 °C' }) });
const search = rawTool({ name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
// The earlier visit: a chat about the weather, in the same database.
const earlier = await createAgent({ model: fakeModel([toolCallText('get_weather', { location: 'Boston, MA' }), 'Sunny.']), storage: { dbName: 'my-app' } });
const before = await earlier.newChat({ tools: [weather, search] });
await before.send('Weather in Boston?');
const id = before.id;
earlier.close();
// The reload.
const model = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
useFakeScript(['Sunny in Boston, 24 °C.']);

// #region readme
// Part of examples/docs/chats/01-chats-that-survive.ts, which has the imports, the tools and the stored chat's `id`.
const agent = await createAgent({ model, storage: { dbName: 'my-app', persist: true } });
agent.storage; // { kind: 'indexeddb', dbName, persisted } — or { kind: 'memory', reason }; agent.checkStorage() for usage and quota

await agent.listChats(); // [{ id, title, createdAt, updatedAt, messageCount }], newest first
const chat = await agent.openChat(id, { tools: [weather, search] }); // after a reload
chat.messages; // the conversation, exactly as stored
chat.pendingToolCalls; // a turn that was waiting for raw results still waits; `interrupted: true` where a handler was cut off
await chat.regenerate(); // replace the last answer (an interrupted one too)
await chat.rename('Trip planning');

const file = await agent.exportChat(id); // { format: 'tabagent.chat', version: 1, exportedAt, chat, messages }
await agent.deleteChat(id);
await agent.importChat(file); // a JSON string or the parsed object
// #endregion readme

check(agent.storage.kind === 'indexeddb' && agent.storage.dbName === 'my-app', JSON.stringify(agent.storage));
const [summary, ...others] = await agent.listChats();
check(others.length === 0 && summary?.id === id && summary.title === 'Trip planning' && summary.messageCount === 4, JSON.stringify(summary));
const restored = await agent.openChat(id, { tools: [weather, search] });
const last = restored.messages.at(-1);
check(last?.role === 'assistant' && last.text === 'Sunny in Boston, 24 °C.', JSON.stringify(last));
