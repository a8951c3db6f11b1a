// docs/chats.md, "Long chats and the context window": a chat that outgrows the window.
import { createAgent, tool } from 'tabagent';
import { z } from 'zod';
import { check, readmeRun, useFakeScript } from '../../../src/test-support/readme-model.js';

const words = (n: number, word: string) => Array.from({ length: n }, () => word).join(' ');
const topics = ['fjords', 'mountains', 'islands', 'glaciers', 'forests', 'lakes'];
useFakeScript(topics.map((topic) => words(400, topic)));
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const tools = [tool({ name: 'get_weather', description: 'Get a weather forecast', input: z.object({ location: z.string() }), run: ({ location }) => ({ location, forecast: 'sunny' }) })];
const notes: string[] = [];
const showNote = (note: string) => void notes.push(note);

// #region readme
// Part of examples/docs/chats/02-context-window.ts, which defines `agent` and `showNote`.
const chat = await agent.newChat({
  tools,
  context: {
    strategy: 'trim', // the default; 'error' never trims (ContextOverflowError instead), or your own:
    // strategy: ({ messages, keepFrom, contextWindow, reservedTokens, tokensOf }) => ({ from: keepFrom, summary: 'Earlier: …' }),
    window: 4096, // default: the model's own
    reserve: 512, // tokens kept for the reply
  },
});
chat.on('context-trimmed', ({ dropped, shortened, promptTokens, contextWindow }) => {
  showNote(`The ${dropped} earliest messages are no longer in the model's memory.`);
});
// #endregion readme

for (const topic of topics) await chat.send(`Tell me about ${topic}. ${words(400, 'please')}`);
check(notes.length > 0 && /^The \d+ earliest messages are no longer in the model's memory\.$/.test(notes[0]!), JSON.stringify(notes));
// The stored chat keeps everything; the model saw less.
check(chat.messages.length === 2 * topics.length, `${chat.messages.length} messages`);
const [fake] = readmeRun().fakes;
check(fake!.requests.at(-1)!.messages.length < 2 * topics.length, 'the last request was trimmed');
