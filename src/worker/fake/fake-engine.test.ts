import { describe, expect, it } from 'vitest';
import { isFakeGrammarError, isModelError } from '../../errors/index.js';
import { codecs } from '../../protocol/codecs.js';
import { convTemplate, type ConvTemplate } from '../../protocol/conv-templates.js';
import { buildConstraint } from '../../protocol/grammar.js';
import type { EngineMessage } from '../../shared/tool-protocol.js';
import type { FakeRequest } from '../../rpc/worker-protocol.js';
import type { EngineRequest } from '../engine.js';
import { FakeEngine, type FakeSource } from './fake-engine.js';
import { countTokens } from '../../protocol/token-estimate.js';

const chatml = convTemplate('chatml')!;

function engine(source: FakeSource, options: { template?: ConvTemplate; contextWindow?: number; records?: FakeRequest[] } = {}) {
  return new FakeEngine(source, {
    template: options.template ?? chatml,
    contextWindow: options.contextWindow ?? 4096,
    tokenDelayMs: 0,
    onRequest: (r) => options.records?.push(r),
  });
}

const complete = (e: FakeEngine, request: EngineRequest) => e.complete(request, () => undefined);
const failure = (e: FakeEngine, request: EngineRequest) => complete(e, request).then(() => null, (error: unknown) => error as Record<string, unknown>);

describe('the fake engine', () => {
  it('streams its output in several chunks', async () => {
    const deltas: string[] = [];
    const result = await engine({ outputs: ['Hello there, world!'] }).complete({ messages: [{ role: 'user', content: 'hi' }] }, (d) => deltas.push(d));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Hello there, world!');
    expect(result).toMatchObject({ text: 'Hello there, world!', finishReason: 'stop', usage: { completionTokens: deltas.length } });
  });

  it('renders the prompt with the conversation template, as WebLLM does', async () => {
    const records: FakeRequest[] = [];
    await complete(engine({ outputs: ['ok'] }, { template: convTemplate('llama-3_1')!, records }), {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(records[0]!.prompt).toBe(
      '<|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
    );
  });

  it('prefills only the new round when the request extends the cached conversation, as WebLLM judges it', async () => {
    const records: FakeRequest[] = [];
    const e = engine({ respond: async (r) => `answer ${r.turn}` }, { records });
    const first: EngineMessage[] = [
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'first question' },
    ];
    const a = await complete(e, { messages: first });
    expect(a.usage.promptTokens).toBe(countTokens(records[0]!.prompt));

    const next: EngineMessage = { role: 'user', content: 'second question, longer' };
    const extended = [...first, { role: 'assistant' as const, content: a.text }, next];
    const b = await complete(e, { messages: extended });
    expect(records[1]!.reusedCache).toBe(true);
    expect(b.usage.promptTokens).toBe(countTokens('<|im_start|>user\nsecond question, longer<|im_end|>\n') + countTokens('<|im_start|>assistant\n'));

    // A changed history (here, the assistant turn not replayed byte for byte) is prefilled from scratch.
    const edited = [...extended, { role: 'assistant' as const, content: 'answer 1 (edited)' }, next];
    const c = await complete(e, { messages: edited });
    expect(records[2]!.reusedCache).toBe(false);
    expect(c.usage.promptTokens).toBe(countTokens(records[2]!.prompt));
  });

  it('stops at max_tokens with finishReason length, and then cannot reuse its cache', async () => {
    const records: FakeRequest[] = [];
    const e = engine({ respond: async () => 'one two three four five six' }, { records });
    const messages: EngineMessage[] = [{ role: 'user', content: 'count' }];
    const cut = await complete(e, { messages, max_tokens: 3 });
    // A word is one token with its leading space, as in byte-level BPE.
    expect(cut).toMatchObject({ text: 'one two three', finishReason: 'length' });
    await complete(e, { messages: [...messages, { role: 'assistant', content: cut.text }, { role: 'user', content: 'go on' }] });
    expect(records[1]!.reusedCache).toBe(false);
  });

  it('ends at a stop string as WebLLM does: streamed until it is whole, cut from the text, finishReason stop, the cache kept', async () => {
    const records: FakeRequest[] = [];
    const e = engine({ outputs: ['Hello there END. More words', 'Next.'] }, { records });
    const deltas: string[] = [];
    const messages: EngineMessage[] = [{ role: 'user', content: 'hi' }];
    const result = await e.complete({ messages, stop: [' END.'] }, (d) => deltas.push(d));
    // WebLLM 0.2.86 streams ' END' before '.' makes the stop string whole: the worker holds it back (stop-hold.ts).
    expect(deltas.join('')).toBe('Hello there END');
    expect(result).toMatchObject({ text: 'Hello there', finishReason: 'stop' });
    expect(records[0]!.stop).toEqual([' END.']);
    await complete(e, { messages: [...messages, { role: 'assistant', content: result.text }, { role: 'user', content: 'go on' }] });
    expect(records[1]!.reusedCache).toBe(true);
  });

  it('stops when interrupted', async () => {
    const e = engine({ outputs: [{ text: 'a b c d e f g h', tokenDelayMs: 5 }] });
    const deltas: string[] = [];
    const run = e.complete({ messages: [{ role: 'user', content: 'x' }] }, (d) => {
      deltas.push(d);
      if (deltas.length === 3) e.interrupt();
    });
    expect(await run).toMatchObject({ finishReason: 'abort', text: 'a b c' });
  });
});

describe('what WebLLM refuses, the fake refuses the same way', () => {
  it.each<[string, EngineRequest, string, string]>([
    ['a system message after the first', { messages: [{ role: 'user', content: 'a' }, { role: 'system', content: 's' }, { role: 'user', content: 'b' }] }, 'SystemMessageOrderError', 'System prompt should always be the first message in `messages`.'],
    ['a request that ends with the assistant', { messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] }, 'MessageOrderError', 'Last message should be from either `user` or `tool`.'],
    ['a tool message for a template without a tool role', { messages: [{ role: 'user', content: 'a' }, { role: 'tool', content: '1' }] }, undefined as unknown as string, 'Role is not supported: tool'],
    ['max_tokens of 0', { messages: [{ role: 'user', content: 'a' }], max_tokens: 0 }, 'MinValueError', 'Make sure `max_tokens` > 0.'],
    ['a seed that is not an integer', { messages: [{ role: 'user', content: 'a' }], seed: 1.5 }, 'SeedTypeError', '`seed` should be an integer, but got 1.5'],
  ])('%s', async (_, request, engineError, message) => {
    const error = await failure(engine({ outputs: ['never'] }), request);
    expect(isModelError(error)).toBe(true);
    expect(error).toMatchObject({ engineError, reason: message });
  });

  it('accepts the tool role where the template has one (Llama 3.1: ipython)', async () => {
    const result = await complete(engine({ outputs: ['done'] }, { template: convTemplate('llama-3_1')! }), { messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'tool', content: '1' }] });
    expect(result.text).toBe('done');
  });

  it('a prompt longer than the context window fails as WebLLM does', async () => {
    const error = await failure(engine({ outputs: ['never'] }, { contextWindow: 50 }), { messages: [{ role: 'user', content: 'word '.repeat(60) }] });
    expect(error).toMatchObject({ engineError: 'ContextWindowSizeExceededError' });
    expect(String(error!.reason)).toMatch(/^Prompt tokens exceed context window size: number of prompt tokens: \d+; context window size: 50\n/);
  });

  it('a reply that fills the KV cache ends with finish reason length', async () => {
    const result = await complete(engine({ outputs: ['word '.repeat(100)] }, { contextWindow: 60 }), { messages: [{ role: 'user', content: 'go' }] });
    expect(result.finishReason).toBe('length');
    expect(result.usage.promptTokens + result.usage.completionTokens).toBe(60);
  });

  it('output the grammar refuses fails at once, naming the first refused character', async () => {
    const tools = [{ name: 'get_time', description: '', parameters: { type: 'object', properties: {} } }];
    const response_format = buildConstraint(codecs.hermes.format, tools, 'required', 'none');
    const error = await failure(engine({ outputs: ['Sure, one moment.'] }), { messages: [{ role: 'user', content: 'time?' }], response_format });
    expect(isFakeGrammarError(error)).toBe(true);
    expect(error).toMatchObject({ position: 0, turn: 0 });
  });

  it('thinking off: the empty think block goes in the prompt and the output, not past the grammar', async () => {
    const records: FakeRequest[] = [];
    const tools = [{ name: 'get_time', description: '', parameters: { type: 'object', properties: {} } }];
    const response_format = buildConstraint(codecs.qwen3.format, tools, 'required', 'none');
    const call = '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>';
    const result = await complete(engine({ outputs: [call] }, { template: convTemplate('qwen2')!, records }), { messages: [{ role: 'user', content: 'time?' }], response_format, extra_body: { enable_thinking: false } });
    expect(records[0]!.prompt.endsWith('<|im_start|>assistant\n<think>\n\n</think>\n\n')).toBe(true);
    expect(result.text).toBe(`<think>\n\n</think>\n\n${call}`);
  });

  it('thinking off: the empty think block streams with the first token, so the deltas add up to the text (as WebLLM decodes it)', async () => {
    const deltas: string[] = [];
    const result = await engine({ outputs: ['It is noon.'] }, { template: convTemplate('qwen2')! }).complete({ messages: [{ role: 'user', content: 'time?' }], extra_body: { enable_thinking: false } }, (d) => void deltas.push(d));
    expect(deltas[0]).toBe('<think>\n\n</think>\n\nIt');
    expect(deltas.join('')).toBe(result.text);
  });
});
