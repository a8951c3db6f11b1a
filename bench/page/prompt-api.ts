// Chrome's built-in model on the Prompt API stand-in: what each tool hop sends
// the browser's session, against what the chat holds by then (what a re-send
// of the whole chat would cost). The stand-in counts what it was given, with
// tabagent's token estimate (src/protocol/token-estimate.ts) plus 4 per message.
import { z } from 'zod';
import { createAgent, tool } from '../../src/index.js';
import { countTokens } from '../../src/protocol/token-estimate.js';
import { promptApiStandIn, type StandInTurn } from '../../src/test-support/prompt-api-stand-in.js';

const echo = tool({ name: 'echo', description: 'Echo a text', input: z.object({ text: z.string() }), run: ({ text }) => ({ text }) });

async function promptApiHops(hops: number) {
  let turn = 0;
  /** Per turn: the whole conversation the session holds with the new input, counted as the stand-in counts. */
  const whole: number[] = [];
  const model = ({ context }: StandInTurn) => {
    whole.push(context.reduce((n, m) => n + 4 + countTokens(m.content), 0));
    return turn++ % (hops + 1) < hops ? JSON.stringify({ calls: [{ name: 'echo', arguments: { text: `hello world ${turn}` } }] }) : JSON.stringify({ answer: 'Done: the tool said hello world.' });
  };
  const standIn = promptApiStandIn({ model, contextWindow: 1_000_000 });
  (globalThis as { LanguageModel?: unknown }).LanguageModel = standIn;
  const agent = await createAgent({ model: 'chrome-builtin', storage: false });
  await agent.ready;
  const chat = await agent.newChat({ system: 'You are a helpful assistant. Use the tools when they help.', tools: [echo], maxToolHops: hops + 1 });
  await chat.send('Echo hello world a few times, then tell me what it said.');
  agent.close();
  delete (globalThis as { LanguageModel?: unknown }).LanguageModel;
  // Each prompt after the first is a hop: what it sent, against the whole chat a re-send would have sent.
  const prompts = standIn.inputs.filter((i) => i.call === 'prompt');
  return { sent: prompts.slice(1).map((p) => p.tokens), chatTokens: whole.slice(1), messagesPerHop: prompts.slice(1).map((p) => p.messages.length), sessions: standIn.inputs.filter((i) => i.call === 'create').length };
}

export const promptApiBench = { promptApiHops };
