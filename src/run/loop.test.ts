import { describe, expect, it, vi } from 'vitest';
import { isFakeGrammarError, isInvalidOptionsError } from '../errors/index.js';
import { z } from 'zod';
import {
  DuplicateToolError,
  isPendingToolCallsError,
  isToolExecutionError,
  isToolHopsError,
  isUnknownToolCallError,
  isUnknownToolError,
  ToolExecutionError,
  ToolHopsError,
} from '../errors/index.js';
import { toolCallText as call } from '../testing/calls.js';
import { localChat } from '../test-support/local-chat.js';
import { rawTool, tool } from '../tools/define-tool.js';
import { chatSettings } from '../chat/chat-options.js';

const weather = (run = vi.fn(async ({ location }: { location: string }) => ({ location, forecast: 'sunny' }))) =>
  ({ ...tool({ name: 'get_weather', description: 'Weather', input: z.object({ location: z.string() }), run }), spy: run });
const search = rawTool({ name: 'search_web', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });

describe('managed tools', () => {
  it('runs a managed call and gives the model its result', async () => {
    const w = weather();
    const { chat, fake } = await localChat([call('get_weather', { location: 'Boston, MA' }), 'It is sunny in Boston.'], { tools: [w] });
    const reply = await chat.send('Weather in Boston?');
    expect(reply.text).toBe('It is sunny in Boston.');
    expect(reply.toolCalls).toEqual([]);
    expect(w.spy).toHaveBeenCalledWith({ location: 'Boston, MA' }, expect.objectContaining({ callId: expect.stringMatching(/^call_/) }));
    expect(reply.stats).toMatchObject({ hops: 1, toolCalls: 1, modelCalls: 2 });
    expect(fake.requests[1]!.last).toBe('<tool_response>\n{"location":"Boston, MA","forecast":"sunny"}\n</tool_response>');
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    fake.assertComplete();
  });

  it('prefills only the new message on each hop, as WebLLM reuses its KV cache', async () => {
    const { chat, fake } = await localChat([call('get_weather', { location: 'A' }), call('get_weather', { location: 'B' }), 'done'], { tools: [weather()] });
    await chat.send('go');
    const [first, second, third] = fake.requests;
    // Each request is the previous one, plus the model's turn byte for byte, plus one message.
    expect(second!.messages.slice(0, first!.messages.length)).toEqual(first!.messages);
    expect(second!.messages[first!.messages.length]).toEqual({ role: 'assistant', content: call('get_weather', { location: 'A' }) });
    expect(third!.messages).toHaveLength(second!.messages.length + 2);
  });

  it('runs handlers concurrently up to the limit, with results in call order', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const slow = tool({
      name: 'slow',
      description: '',
      input: z.object({ n: z.number(), ms: z.number() }),
      run: async ({ n, ms }) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((r) => setTimeout(r, ms));
        inFlight--;
        return n;
      },
    });
    const turn = [call('slow', { n: 1, ms: 60 }), call('slow', { n: 2, ms: 5 }), call('slow', { n: 3, ms: 30 })].join('\n');
    for (const limit of [1, 3]) {
      maxInFlight = 0;
      const { chat, fake } = await localChat([turn, 'ok'], { tools: [slow], maxConcurrentTools: limit });
      await chat.send('go');
      expect(maxInFlight).toBe(limit);
      expect(fake.requests[1]!.last).toBe(['1', '2', '3'].map((n) => `<tool_response>\n${n}\n</tool_response>`).join('\n'));
    }
  });

  it('never runs a handler on invalid arguments, and tells the model what is wrong', async () => {
    const w = weather();
    // Only a model without constrained decoding can write these arguments.
    const { chat, fake } = await localChat([call('get_weather', { city: 'Boston' }), 'sorry'], { tools: [w], grammar: false });
    await chat.send('go');
    expect(w.spy).not.toHaveBeenCalled();
    const error = JSON.parse(fake.requests[1]!.last.split('\n')[1]!).error;
    expect(error).toMatch(/Invalid arguments for tool "get_weather"/);
    expect(error).toMatch(/location/);
    expect(error).toMatch(/city: unexpected field/);
  });

  it('answers an unreadable or cut-off call with an error the model sees', async () => {
    const { chat, fake } = await localChat(['<tool_call>\n{"name": "get_weather", "arguments": {"location": "Bos', 'retry'], { tools: [weather()], generation: { maxTokens: 20 } });
    const reply = await chat.send('go');
    expect(reply.text).toBe('retry');
    expect(fake.requests[1]!.last).toMatch(/cut off by the token limit/);
  });
});

describe('error policies', () => {
  const failing = (onError: 'inform' | 'return') =>
    tool({
      name: 'flaky',
      description: '',
      input: z.object({}),
      onError,
      run: () => {
        throw new Error('backend down');
      },
    });

  it("'inform' gives the model the message (no stack) and goes on", async () => {
    const { chat, fake } = await localChat([call('flaky'), 'The backend is down.'], { tools: [failing('inform')] });
    const reply = await chat.send('go');
    expect(reply.text).toBe('The backend is down.');
    expect(fake.requests[1]!.last).toBe('<tool_response>\n{"error":"backend down"}\n</tool_response>');
  });

  it("'return' rejects send with the tool, call id and cause; the model is not told; the call stays pending", async () => {
    const { chat, fake } = await localChat([call('flaky'), 'recovered'], { tools: [failing('return')] });
    const error = await chat.send('go').catch((e: unknown) => e);
    expect(isToolExecutionError(error)).toBe(true);
    const e = error as ToolExecutionError;
    expect(e.toolName).toBe('flaky');
    expect((e.cause as Error).message).toBe('backend down');
    expect(fake.requests).toHaveLength(1);
    expect(chat.pendingToolCalls.map((c) => c.id)).toEqual([e.callId]);
    const reply = await chat.sendToolResult(e.callId, { error: 'handled by the page' });
    expect(reply.text).toBe('recovered');
  });

  it("'return' is the default", () => {
    expect(tool({ name: 't', description: '', input: z.object({}), run: () => 1 }).onError).toBe('return');
  });
});

describe('raw and unknown tools', () => {
  it('returns a raw call to the caller and continues with sendToolResult', async () => {
    const { chat, fake } = await localChat([call('search_web', { q: 'tabagent' }), 'Found it.'], { tools: [search] });
    const reply = await chat.send('Search');
    expect(reply.toolCalls).toEqual([{ id: expect.any(String), name: 'search_web', arguments: { q: 'tabagent' } }]);
    expect(fake.requests).toHaveLength(1);
    const done = await chat.sendToolResult(reply.toolCalls[0]!.id, { hits: ['x'] });
    expect(done.text).toBe('Found it.');
    expect(fake.requests[1]!.last).toContain('{"hits":["x"]}');
  });

  it('never hands the page a raw call with keys that reach into prototypes', async () => {
    const raw = '<tool_call>\n{"name": "search_web", "arguments": {"q": "x", "__proto__": {"polluted": 1}, "opts": {"constructor": 1, "keep": 2}}}\n</tool_call>';
    const { chat } = await localChat([raw], { tools: [search], grammar: false });
    const [call] = (await chat.send('Search')).toolCalls;
    expect(Object.keys(call!.arguments)).toEqual(['q', 'opts']);
    expect(Object.hasOwn(call!.arguments, '__proto__')).toBe(false);
    expect(call!.arguments.opts).toEqual({ keep: 2 });
  });

  it('returns a mixed turn whole; runTool and sendToolResult answer it; results keep call order', async () => {
    const w = weather();
    const turn = `${call('search_web', { q: 'x' })}\n${call('get_weather', { location: 'Oslo' })}`;
    const { chat, fake } = await localChat([turn, 'both done'], { tools: [w, search] });
    const reply = await chat.send('go');
    expect(reply.toolCalls.map((c) => c.name)).toEqual(['search_web', 'get_weather']);
    expect(w.spy).not.toHaveBeenCalled();
    const afterManaged = await chat.runTool(reply.toolCalls[1]!);
    expect(afterManaged.toolCalls.map((c) => c.name)).toEqual(['search_web']);
    expect(fake.requests).toHaveLength(1);
    const done = await chat.sendToolResult(reply.toolCalls[0]!.id, 'raw answer');
    expect(done.text).toBe('both done');
    expect(fake.requests[1]!.last).toBe('<tool_response>\n"raw answer"\n</tool_response>\n<tool_response>\n{"location":"Oslo","forecast":"sunny"}\n</tool_response>');
  });

  it.each(['delete_everything', 'constructor', '__proto__', 'toString'])('never runs an undeclared tool (%s); the call lists what is available', async (name) => {
    const w = weather();
    // Only a model without constrained decoding can name an undeclared tool.
    const { chat } = await localChat([call(name, {})], { tools: [w], grammar: false });
    const reply = await chat.send('go');
    expect(w.spy).not.toHaveBeenCalled();
    expect(reply.toolCalls[0]!.error).toMatch(/Available tools: get_weather/);
  });

  it('returnToolRequests hands managed calls back too', async () => {
    const w = weather();
    const { chat } = await localChat([call('get_weather', { location: 'X' }), 'ok'], { tools: [w] });
    const reply = await chat.send('go', { returnToolRequests: true });
    expect(reply.toolCalls).toHaveLength(1);
    expect(w.spy).not.toHaveBeenCalled();
    expect((await chat.runTool(reply.toolCalls[0]!)).text).toBe('ok');
    expect(w.spy).toHaveBeenCalledTimes(1);
  });

  it('a chat without managed tools never loops', async () => {
    const { chat, fake } = await localChat(['Just text.'], { tools: [search] });
    expect((await chat.send('hi')).text).toBe('Just text.');
    expect(fake.requests).toHaveLength(1);
  });

  it.each([
    ['cut off at the token limit', '<tool_call>\n{"name": "search_web", "arguments": {"q": "a very long query that goes on', 'truncated', { generation: { maxTokens: 12 } }],
    ['unreadable', '<tool_call>\nsearch_web(q=1)\n</tool_call>', 'malformed', { grammar: false }],
  ])('a chat without managed tools hands an %s call back, with its errorCode, instead of asking the model again', async (_, output, errorCode, options) => {
    const { chat, fake } = await localChat([output, 'never asked'], { tools: [search], ...options });
    const reply = await chat.send('Search');
    expect(fake.requests).toHaveLength(1);
    expect(reply.toolCalls).toEqual([expect.objectContaining({ errorCode })]);
  });
});

// The grammar leaves a string's length to the check (docs/tools.md): a raw tool's is the turn's, as a managed tool's is its handler's.
describe("a raw call its tool's schema refuses", () => {
  const note = rawTool({ name: 'save_note', description: 'Save a note', parameters: { type: 'object', properties: { text: { type: 'string', maxLength: 10 } }, required: ['text'] } });

  it('goes back to the model, told what is wrong, beside a managed tool; the call it writes again comes to the page', async () => {
    const { chat, fake } = await localChat([call('save_note', { text: 'far too long a note' }), call('save_note', { text: 'short' })], { tools: [note, weather()] });
    const reply = await chat.send('Save it');
    expect(fake.requests[1]!.last).toContain('Invalid arguments for tool \\"save_note\\"');
    expect(reply.toolCalls).toEqual([expect.objectContaining({ name: 'save_note', arguments: { text: 'short' } })]);
    expect(reply.toolCalls[0]!.error).toBeUndefined();
  });

  it('in a chat without managed tools, comes to the page with its error and errorCode', async () => {
    const { chat, fake } = await localChat([call('save_note', { text: 'far too long a note' }), 'never asked'], { tools: [note] });
    const reply = await chat.send('Save it');
    expect(fake.requests).toHaveLength(1);
    expect(reply.toolCalls).toEqual([expect.objectContaining({ errorCode: 'invalid-arguments', error: expect.stringContaining('text: ') })]);
  });
});

describe('stats on errors', () => {
  it('every run error carries the stats so far: a return-policy failure, an abort, a model failure', async () => {
    const add = tool({ name: 'add', description: '', input: z.object({ a: z.number() }), run: ({ a }) => a });
    const boom = tool({ name: 'boom', description: '', input: z.object({}), run: () => Promise.reject(new Error('down')) });
    const failing = await localChat([call('add', { a: 1 }), call('boom')], { tools: [add, boom] });
    const failure = await failing.chat.send('go').catch((e) => e);
    expect(failure.name).toBe('ToolExecutionError');
    expect(failure.stats).toMatchObject({ hops: 1, modelCalls: 2, toolCalls: 2 });

    const slow = await localChat([{ text: 'many words to stream here', tokenDelayMs: 10 }]);
    const controller = new AbortController();
    slow.chat.on('text', () => controller.abort());
    const aborted = slow.chat.send('go', { signal: controller.signal }).catch((e) => e);
    expect(await aborted).toMatchObject({ name: 'AbortError', stats: { modelCalls: 1, hops: 0 } });

    const broken = await localChat([{ text: 'partial', fault: 'model-error' }]);
    expect(await broken.chat.send('go').catch((e) => e)).toMatchObject({ name: 'ModelError', stats: { hops: 0 } });
  });
});

describe('the hop cap', () => {
  it.each([0, -1, 1.5])('refuses maxToolHops %s with InvalidOptionsError', async (maxToolHops) => {
    const error = await localChat(['x'], { maxToolHops }).catch((e) => e);
    expect(isInvalidOptionsError(error)).toBe(true);
    expect(error.message).toMatch(/maxToolHops/);
  });

  it('stops a model that calls tools forever with ToolHopsError, calls left pending', async () => {
    const w = weather();
    const { chat, fake } = await localChat(() => call('get_weather', { location: 'again' }), { tools: [w], maxToolHops: 2 });
    const error = await chat.send('loop').catch((e: unknown) => e);
    expect(isToolHopsError(error)).toBe(true);
    expect((error as ToolHopsError).hops).toBe(2);
    expect((error as ToolHopsError).lastReply.toolCalls).toHaveLength(1);
    expect(w.spy).toHaveBeenCalledTimes(2);
    expect(fake.requests).toHaveLength(3);
    expect(chat.pendingToolCalls).toHaveLength(1);
    // The chat stays usable: cancel the pending call, then talk on.
    await chat.cancelToolCalls();
    expect(chat.pendingToolCalls).toEqual([]);
  });

  it('defaults to 5 hops', async () => {
    const { chat } = await localChat(() => call('get_weather', { location: 'x' }), { tools: [weather()] });
    await expect(chat.send('loop')).rejects.toMatchObject({ hops: 5 });
  });
});

describe('the chat', () => {
  it('rejects duplicate tool names at creation', () => {
    expect(() => chatSettings({ tools: [weather(), weather()] })).toThrow(DuplicateToolError);
  });

  it('refuses a new message while calls are unanswered, and unknown or repeated answers', async () => {
    const { chat } = await localChat([call('search_web', { q: 'a' }), 'ok'], { tools: [search] });
    const reply = await chat.send('go');
    expect(isPendingToolCallsError(await chat.send('another').catch((e) => e))).toBe(true);
    expect(isUnknownToolCallError(await chat.sendToolResult('call_nope', 1).catch((e) => e))).toBe(true);
    const id = reply.toolCalls[0]!.id;
    expect(isUnknownToolCallError(await chat.sendToolResults([{ callId: id, result: 1 }, { callId: id, result: 2 }]).catch((e) => e))).toBe(true);
    expect(chat.pendingToolCalls.map((c) => c.id)).toEqual([id]);
    await chat.sendToolResult(id, 1);
    expect(isUnknownToolCallError(await chat.sendToolResult(id, 1).catch((e) => e))).toBe(true);
  });

  it('cancelToolCalls answers what is still pending, keeping answers already given', async () => {
    const { chat } = await localChat([`${call('search_web', { q: 'a' })}\n${call('search_web', { q: 'b' })}`, 'moved on'], { tools: [search] });
    const reply = await chat.send('go');
    await chat.sendToolResult(reply.toolCalls[0]!.id, 'first answer');
    await chat.cancelToolCalls('The user moved on.');
    const results = (chat.messages.at(-1) as { results: Array<{ content: string; isError: boolean }> }).results;
    expect(results).toEqual([expect.objectContaining({ content: '"first answer"', isError: false }), expect.objectContaining({ content: '{"error":"The user moved on."}', isError: true })]);
    expect((await chat.send('next')).text).toBe('moved on');
  });

  it('after cancelToolCalls or a terminate, the next send still adds one message, so the KV cache is reused', async () => {
    const { chat, fake } = await localChat([call('search_web', { q: 'a' }), 'moved on'], { tools: [search] });
    await chat.send('go');
    await chat.cancelToolCalls('The user moved on.');
    await chat.send('next');
    expect(fake.requests[1]!.reusedCache).toBe(true);
    expect(fake.requests[1]!.messages.at(-1)!.content).toBe('<tool_response>\n{"error":"The user moved on."}\n</tool_response>\nnext');

    const finalAnswer = tool({ name: 'final_answer', description: '', input: z.object({ answer: z.string() }), run: ({ answer }, ctx) => (ctx.terminate(), answer) });
    const ended = await localChat([call('final_answer', { answer: '42' }), 'again'], { tools: [finalAnswer] });
    await ended.chat.send('go');
    await ended.chat.send('and now?');
    expect(ended.fake.requests[1]!.reusedCache).toBe(true);

    // A template with a tool role (Llama 3.1's ipython) too: unread results go with the user's message.
    const llama = await localChat([call('search_web', { q: 'a' }, 'llama'), 'moved on'], { tools: [search] }, { family: 'llama', template: 'llama-3_1' });
    await llama.chat.send('go');
    await llama.chat.cancelToolCalls();
    await llama.chat.send('next');
    expect(llama.fake.requests[1]!.reusedCache).toBe(true);
    expect(llama.fake.requests[1]!.messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('serializes two sends on one chat', async () => {
    const { chat, fake } = await localChat((r) => `reply to ${r.last}`);
    const [a, b] = await Promise.all([chat.send('first'), chat.send('second')]);
    expect([a.text, b.text]).toEqual(['reply to first', 'reply to second']);
    expect(chat.messages.map((m) => (m.role === 'user' ? m.content : m.role))).toEqual(['first', 'assistant', 'second', 'assistant']);
    expect(fake.requests[1]!.messages.map((m) => m.content)).toEqual(['first', 'reply to first', 'second']);
  });

  it('aborting a send queued behind another rejects it at once, and it never runs', async () => {
    const { chat, fake } = await localChat([{ text: 'slow reply with many words to stream', tokenDelayMs: 20 }, 'second']);
    let firstDone = false;
    const first = chat.send('first').then((reply) => ((firstDone = true), reply));
    const controller = new AbortController();
    const second = chat.send('second', { signal: controller.signal });
    controller.abort();
    expect((await second.catch((e) => e)).name).toBe('AbortError');
    expect(firstDone).toBe(false);
    await first;
    expect(fake.requests).toHaveLength(1);
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('asks for tool choices by grammar, forcing only the first model call', async () => {
    const { chat, fake } = await localChat([call('get_weather', { location: 'x' }), 'ok'], { tools: [weather(), search] });
    await chat.send('go', { toolChoice: { name: 'get_weather' } });
    expect(fake.requests[0]!.responseFormat).toMatchObject({ type: 'structural_tag', structural_tag: { format: { type: 'tag', begin: expect.stringContaining('get_weather') } } });
    expect(fake.requests[1]!.responseFormat).toMatchObject({ structural_tag: { format: { type: 'triggered_tags' } } });
    expect(isUnknownToolError(await chat.send('x', { toolChoice: { name: 'nope' } }).catch((e) => e))).toBe(true);
  });

  it("'none' forbids calls by grammar: a model could not write one", async () => {
    const { chat, fake } = await localChat([call('get_weather', { location: 'x' })], { tools: [weather()], toolChoice: 'none' });
    expect(isFakeGrammarError(await chat.send('go').catch((e) => e))).toBe(true);
    expect(fake.requests[0]!.responseFormat).toMatchObject({ type: 'grammar' });
  });

  it("'none' reads call text as text, even from a model without constrained decoding", async () => {
    const raw = call('get_weather', { location: 'x' });
    const { chat } = await localChat([raw], { tools: [weather()], toolChoice: 'none', grammar: false });
    expect(await chat.send('go')).toMatchObject({ text: raw, toolCalls: [] });
  });

  it('can turn the grammar off', async () => {
    const { chat, fake } = await localChat(['ok'], { tools: [weather()], grammar: false });
    await chat.send('go');
    expect(fake.requests[0]!.responseFormat).toBeUndefined();
  });
});

describe('models that think in their own markers', () => {
  it('Ministral 3 Reasoning thinks in [THINK]…[/THINK] before a forced call: the grammar lets it, the thought is reasoning, the call runs', async () => {
    const w = weather();
    const { chat, fake } = await localChat(
      ['[THINK]The user wants the weather; I call the tool.[/THINK][TOOL_CALLS]get_weather[ARGS]{"location": "Paris"}', '[THINK]It said sunny.[/THINK]It is sunny in Paris.'],
      { tools: [w], toolChoice: 'required' },
      { modelId: 'Ministral-3-3B-Reasoning-2512-q4f16_1-MLC' },
    );
    const reply = await chat.send('Weather in Paris?');
    expect(w.spy).toHaveBeenCalledWith({ location: 'Paris' }, expect.anything());
    expect(reply.text).toBe('It is sunny in Paris.');
    expect(reply.steps.map((s) => s.reasoning)).toEqual(['The user wants the weather; I call the tool.', 'It said sunny.']);
    fake.assertComplete();
  });
});
