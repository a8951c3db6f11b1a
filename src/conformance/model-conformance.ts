// The conformance run for one model id: every way a chat uses tools, through
// the whole runtime (chat, loop, codec, grammar, scanner) and the strict fake
// standing in for that model: its conversation template, its grammar, its
// context window. What passes here is a request WebLLM would take and output
// the model could write under the grammar.
import { z } from 'zod';
import type { ChatOptions } from '../agent/chat-options.js';
import { convTemplate, replyReasoning } from '../protocol/conv-templates.js';
import { modelEntry, type ModelEntry } from '../protocol/model-table.js';
import type { Reasoning } from '../protocol/types.js';
import { localChat } from '../test-support/local-chat.js';
import { toolCallText } from '../testing/calls.js';
import type { FakeOutput } from '../testing/types.js';
import { rawTool, tool } from '../tools/define-tool.js';
import { messageOf } from '../errors/message-of.js';

export const CHECKS = ['managed', 'raw', 'auto', 'required', 'named', 'none'] as const;
export type Check = (typeof CHECKS)[number];

export interface Conformance {
  modelId: string;
  entry: ModelEntry & { known: boolean };
  contextWindow: number;
  /** How the model's replies open: with its own think block, inside one the prompt opened, or not at all. */
  reasoning: Reasoning;
  /** Each check: passed, or what went wrong. */
  results: Record<Check, true | string>;
}

const weather = () =>
  tool({
    name: 'get_weather',
    description: 'Get the weather forecast for a city',
    input: z.object({ location: z.string().describe('City name'), days: z.number().int().optional() }),
    run: async ({ location }) => ({ location, forecast: 'sunny' }),
  });
const search = rawTool({ name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } });

export async function conform(modelId: string, contextWindow: number): Promise<Conformance> {
  const entry = modelEntry(modelId);
  const reasoning = replyReasoning(convTemplate(entry.template)!, entry.thinks, undefined);
  // What the model writes before its answer, as its template and training have it.
  const lead = reasoning === 'think' ? '<think>\nThe user asked; I know what to do.\n</think>\n\n' : reasoning === 'opened' ? 'The user asked; I know what to do.\n</think>\n\n' : '';
  const say = (text: string) => lead + text;
  const call = (name: string, args: Record<string, unknown>) => say(toolCallText(name, args, entry.family));
  const chat = (script: FakeOutput[], options: ChatOptions) => localChat(script, options, { modelId, contextWindow });

  const checks: Record<Check, () => Promise<void>> = {
    async managed() {
      const w = weather();
      const { chat: c, fake } = await chat([call('get_weather', { location: 'Boston' }), say('It is sunny in Boston.')], { tools: [w, search] });
      const reply = await c.send('What is the weather in Boston?');
      expect(reply.text === 'It is sunny in Boston.', `the answer reads ${JSON.stringify(reply.text)}`);
      const [first, second] = fake.requests;
      expect(first!.prompt.includes('get_weather') && first!.prompt.includes('search_web'), 'the tools are declared in the prompt');
      expect(second!.prompt.includes('sunny'), 'the tool result reaches the model');
      expect(second!.reusedCache, 'the second hop reuses the KV cache');
    },
    async raw() {
      const { chat: c } = await chat([call('search_web', { query: 'tabagent' }), say('Found nothing.')], { tools: [weather(), search] });
      const first = await c.send('Search for tabagent.');
      const pending = first.toolCalls[0];
      expect(pending?.name === 'search_web' && pending.arguments?.query === 'tabagent', `the raw call comes back: ${JSON.stringify(first.toolCalls)}`);
      const answered = await c.sendToolResult(pending!.id, { hits: [] });
      expect(answered.text === 'Found nothing.', `the answer reads ${JSON.stringify(answered.text)}`);
    },
    async auto() {
      const { chat: c } = await chat([say('Hello! How can I help?')], { tools: [weather(), search] });
      expect((await c.send('Hi')).text === 'Hello! How can I help?', 'a plain answer');
    },
    async required() {
      const { chat: c, fake } = await chat([call('get_weather', { location: 'Oslo' }), say('Cold.')], { tools: [weather(), search], toolChoice: 'required' });
      expect((await c.send('Weather in Oslo?')).text === 'Cold.', 'the forced call runs');
      expect(fake.requests[0]!.responseFormat !== undefined, 'the call is forced by grammar');
    },
    async named() {
      const { chat: c } = await chat([call('get_weather', { location: 'Rome', days: 2 }), say('Warm.')], { tools: [weather(), search], toolChoice: { name: 'get_weather' } });
      expect((await c.send('Rome?')).text === 'Warm.', 'the named call runs');
    },
    async none() {
      const { chat: c, fake } = await chat([say('No tools needed.')], { tools: [weather(), search], toolChoice: 'none' });
      expect((await c.send('Hi')).text === 'No tools needed.', 'a plain answer');
      expect(fake.requests[0]!.responseFormat?.type === 'grammar', 'calls are ruled out by grammar');
    },
  };

  const results = {} as Record<Check, true | string>;
  for (const check of CHECKS) {
    results[check] = await checks[check]().then(
      () => true as const,
      (error: unknown) => `${(error as Error)?.name ?? 'Error'}: ${messageOf(error)}`,
    );
  }
  return { modelId, entry, contextWindow, reasoning, results };
}

function expect(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}
