// docs/runs.md, "Events": one listener per event, then runs that fire them all.
import { createAgent, tool } from 'tabagent';
import { toolCallsText } from 'tabagent/testing';
import { z } from 'zod';
import { check, useFakeScript } from '../../../src/test-support/readme-model.js';

const words = (n: number, word: string) => Array.from({ length: n }, () => word).join(' ');
useFakeScript([
  toolCallsText([
    { name: 'get_weather', arguments: { location: 'Oslo' } },
    { name: 'delete_file', arguments: { path: '/tmp/plan.txt' } },
    { name: 'delete_file', arguments: { path: '/etc/hosts' } },
  ]),
  'Sunny in Oslo; I deleted /tmp/plan.txt but not /etc/hosts.',
  words(150, 'fjord'),
  words(150, 'mountain'),
  'Bergen is rainy.',
]);
const agent = await createAgent({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC' });
const weather = tool({
  name: 'get_weather',
  description: 'Get a weather forecast',
  input: z.object({ location: z.string() }),
  run: ({ location }, ctx) => {
    ctx.update({ status: 'looking up' });
    return { location, forecast: 'sunny' };
  },
});
const remove = tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => ({ deleted: path }) });
const chat = await agent.newChat({
  tools: [weather, remove],
  approve: (call) => (call.arguments.path === '/etc/hosts' ? { approved: false, reason: 'a system file' } : true),
  context: { window: 1024 },
});
const output = { textContent: '' };
const logged: string[] = [];
const log = (line: string) => void logged.push(line);
const notes: string[] = [];
const showNote = (note: string) => void notes.push(note);

// #region readme
// Part of examples/docs/runs/05-events.ts, which defines `chat`, `output`, `log` and `showNote`.
chat.on('model-start', ({ step }) => log(`model call ${step} of this run`));
chat.on('text', ({ step, delta }) => (output.textContent += delta));
chat.on('model-end', ({ step, text, toolCalls, finishReason, promptTokens, completionTokens }) => log(`${finishReason}: ${toolCalls.length} calls, ${completionTokens} tokens`));
chat.on('tool-start', ({ callId, toolName, input }) => log(`${toolName}(${JSON.stringify(input)})`));
chat.on('tool-progress', ({ callId, toolName, details }) => log(`${toolName}: ${JSON.stringify(details)}`)); // from ctx.update(details)
chat.on('tool-end', ({ callId, toolName, content, isError, status, durationMs, attempts }) => log(`${toolName}: ${status} in ${durationMs} ms`));
chat.on('approval-request', ({ callId, toolName, input }) => log(`asking about ${toolName}`)); // approve is being asked
chat.on('tool-denied', ({ callId, toolName, reason }) => log(`${toolName} denied: ${reason}`));
chat.on('hop', ({ hops }) => log(`hop ${hops} done`));
chat.on('context-trimmed', ({ dropped, shortened, promptTokens, contextWindow }) => showNote(`The model no longer sees the ${dropped} earliest messages.`)); // older messages left the model's view
chat.on('messages', ({ count }) => log(`${count} messages`)); // committed here or in another tab
// #endregion readme

await chat.send('Weather in Oslo? And delete /tmp/plan.txt and /etc/hosts.');
await chat.send(`Tell me about fjords. ${words(150, 'please')}`);
await chat.send(`Tell me about mountains. ${words(150, 'please')}`);
await chat.send('And the weather in Bergen?');
const expected = [
  /^model call 0 of this run$/,
  /^model call 1 of this run$/,
  /^stop: 3 calls, \d+ tokens$/,
  /^get_weather\({"location":"Oslo"}\)$/,
  /^get_weather: {"status":"looking up"}$/,
  /^get_weather: ok in [\d.]+ ms$/,
  /^asking about delete_file$/,
  /^delete_file: ok in [\d.]+ ms$/,
  /^delete_file denied: a system file$/,
  /^hop 1 done$/,
  /^\d+ messages$/,
];
for (const line of expected) check(logged.some((l) => line.test(l)), `no log line like ${line}: ${JSON.stringify(logged)}`);
check(output.textContent.includes('Sunny in Oslo') && output.textContent.endsWith('Bergen is rainy.'), output.textContent);
check(notes.length > 0 && /^The model no longer sees the \d+ earliest messages\.$/.test(notes[0]!), JSON.stringify(notes));
