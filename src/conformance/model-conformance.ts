// The conformance run for one model id: every way a chat uses tools, through
// the whole runtime (chat, loop, codec, grammar, scanner) and the strict fake
// standing in for that model: its conversation template, its grammar, its
// context window. What passes here is a request WebLLM would take and output
// the model could write under the grammar.
import { z } from 'zod';
import type { ChatOptions } from '../chat/chat-options.js';
import { codecs } from '../protocol/codecs.js';
import { convTemplate, replyReasoning } from '../protocol/conv-templates.js';
import { modelEntry, type ModelEntry } from '../protocol/model-table.js';
import type { Reasoning } from '../protocol/types.js';
import type { JsonObject } from '../shared/json.js';
import { localChat } from '../test-support/local-chat.js';
import { toolCallText } from '../testing/calls.js';
import type { FakeOutput } from '../testing/types.js';
import { rawTool, tool } from '../tools/define-tool.js';
import { messageOf } from '../errors/message-of.js';
import { assistantText, loadTemplate, resultFrame, templateSourceFor } from './template-oracle.js';

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
  /**
   * The model's own chat template (or one with the same call format) that
   * wrote the scripted calls, where a package ships one; otherwise the calls
   * are tabagent's own rendering of the family's format.
   */
  oracle?: { origin: string; model: string; relation: 'own' | 'same-format' };
}

/** What a run may take other than the model table's word for a model: a control that the table can fail. */
export type EntryOverride = Partial<Pick<ModelEntry, 'family' | 'template'>>;

const weather = () =>
  tool({
    name: 'get_weather',
    description: 'Get the weather forecast for a city',
    input: z.object({ location: z.string().describe('City name'), days: z.number().int().optional() }),
    run: async ({ location }) => ({ location, forecast: 'sunny' }),
  });
const search = rawTool({ name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } });

/**
 * `override`: run the model as if the table said this instead (the calls are
 * still those its own template writes), to show a wrong entry fails.
 */
export async function conform(modelId: string, contextWindow: number, override: EntryOverride = {}): Promise<Conformance> {
  const entry = { ...modelEntry(modelId), ...override };
  const reasoning = replyReasoning(convTemplate(entry.template)!, entry.thinks, undefined);
  // What the model writes before its answer, as its template and training have it.
  const thought = 'The user asked; I know what to do.';
  // (in the family's own markers: Ministral 3 Reasoning thinks in [THINK]…[/THINK])
  const { open, close } = codecs[entry.family].think;
  const lead = reasoning === 'think' ? `${open}\n${thought}\n${close}\n\n` : reasoning === 'opened' ? `${thought}\n${close}\n\n` : '';
  const say = (text: string) => lead + text;
  // The calls as the model's own chat template writes them, found by the model (not by
  // the family the table gives it); tabagent's own rendering where no package ships one.
  const source = templateSourceFor(entry.base);
  const template = source && (await loadTemplate(source));
  const call = (name: string, args: Record<string, unknown>) => {
    if (!template) return say(toolCallText(name, args, entry.family));
    const text = assistantText(template, { name, calls: [{ name, arguments: args as JsonObject }] }, reasoning === 'think' ? thought : undefined);
    // A template that writes the think block itself (Qwen3) has it already.
    return text.startsWith(open) ? text : say(text);
  };
  // How the model's own template gives a tool result (a same-format stand-in says nothing of the prompt).
  const frame = template && source.relation === 'own' ? resultFrame(template) : undefined;
  const chat = (script: FakeOutput[], options: ChatOptions) => localChat(script, options, { modelId, contextWindow, ...override });

  const checks: Record<Check, () => Promise<void>> = {
    async managed() {
      const w = weather();
      const { chat: c, fake } = await chat([call('get_weather', { location: 'Boston' }), say('It is sunny in Boston.')], { tools: [w, search] });
      const reply = await c.send('What is the weather in Boston?');
      expect(reply.text === 'It is sunny in Boston.', `the answer reads ${JSON.stringify(reply.text)}`);
      const [first, second] = fake.requests;
      expect(first!.prompt.includes('get_weather') && first!.prompt.includes('search_web'), 'the tools are declared in the prompt');
      expect(second!.prompt.includes('sunny'), 'the tool result reaches the model');
      if (frame) {
        const prompt = second!.prompt;
        const start = prompt.indexOf(frame.before);
        const end = start < 0 ? -1 : prompt.indexOf(frame.after, start + frame.before.length);
        const framed = end >= 0 && prompt.slice(start + frame.before.length, end).includes('sunny');
        expect(framed, `the tool result is given as the model's own template gives it: ${JSON.stringify(frame.before)} … ${JSON.stringify(frame.after)}`);
      }
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
  const oracle = template && { origin: template.origin, model: source.model, relation: source.relation };
  return { modelId, entry, contextWindow, reasoning, results, ...(oracle ? { oracle } : {}) };
}

function expect(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}
