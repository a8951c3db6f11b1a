// A server model through the AI SDK's own test model (MockLanguageModelV4,
// ai/test) and a real provider (@ai-sdk/openai-compatible over a fetch that
// answers in the chat-completions SSE format): its calls run in tabagent's
// loop, its stream becomes the turn, and the app's key is never stored.
import 'fake-indexeddb/auto';
import { APICallError } from '@ai-sdk/provider';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isModelError, isToolHopsError } from '../../errors/index.js';
import { IdbChatStore } from '../../store/idb-chat-store.js';
import { dispatchedAgent } from '../../test-support/server-agent.js';
import { rawTool, tool } from '../../tools/define-tool.js';
import { ServerModel } from './server-model.js';
import { MAX_REPLY_CHARS } from './read-stream.js';

type Part = Record<string, unknown> & { type: string };

const usage = (input: number, output: number, cacheRead?: number) => ({
  inputTokens: { total: input, noCache: cacheRead === undefined ? input : input - cacheRead, cacheRead, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});
const finish = (unified: string, input = 10, output = 3, cacheRead?: number): Part => ({ type: 'finish', finishReason: { unified, raw: unified }, usage: usage(input, output, cacheRead) });
const text = (...deltas: string[]): Part[] => [{ type: 'text-start', id: 't' }, ...deltas.map((delta) => ({ type: 'text-delta', id: 't', delta })), { type: 'text-end', id: 't' }];
const call = (id: string, toolName: string, input: object): Part => ({ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) });

/** A MockLanguageModelV4 that streams one scripted turn per call, and fails when the script runs out. */
function scripted(...turns: Part[][]): MockLanguageModelV4 {
  let next = 0;
  return new MockLanguageModelV4({
    provider: 'test-provider',
    modelId: 'test-model',
    doStream: async () => {
      const turn = turns[next++];
      if (!turn) throw new Error(`the script has ${turns.length} turns; call ${next} asked for another`);
      return { stream: convertArrayToReadableStream([{ type: 'stream-start', warnings: [] }, ...turn] as never) };
    },
  });
}

const add = tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
const idb = () => IdbChatStore.open(`server-test-${Math.random()}`);

describe('a server model through an AI SDK provider', () => {
  it('is ready at once on the page, and its tools go as the provider’s function tools; its calls run in tabagent’s loop', async () => {
    const model = scripted([call('c1', 'add', { a: 1, b: 2 }), finish('tool-calls')], [...text('It is ', '3.'), finish('stop')]);
    const { agent, loaded } = await dispatchedAgent({ model });
    expect(await loaded).toMatchObject({ modelId: 'test-model', engine: 'server', host: 'page' });
    const chat = await agent.newChat({ system: 'Be brief.', tools: [add] });
    const reply = await chat.send('What is 1 + 2?');
    expect(reply.text).toBe('It is 3.');
    const [first, second] = model.doStreamCalls;
    expect(first!.tools).toEqual([{ type: 'function', name: 'add', description: 'Add two numbers', inputSchema: expect.objectContaining({ type: 'object', required: ['a', 'b'] }) }]);
    expect(first!.toolChoice).toEqual({ type: 'auto' });
    expect(first!.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'What is 1 + 2?' }] },
    ]);
    // The next hop: the call and tabagent's result, paired by one id.
    const [assistant, results] = second!.prompt.slice(2) as unknown as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(assistant).toEqual({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: expect.any(String), toolName: 'add', input: { a: 1, b: 2 } }] });
    expect(results).toEqual({ role: 'tool', content: [{ type: 'tool-result', toolCallId: assistant!.content[0]!.toolCallId, toolName: 'add', output: { type: 'text', value: '3' } }] });
  });

  it('invalid arguments are refused by tabagent’s validation, not run, and the model reads why', async () => {
    let ran = 0;
    const counted = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => (ran++, a + b) });
    const model = scripted([call('c1', 'add', { a: 'one' }), finish('tool-calls')], [...text('Sorry.'), finish('stop')]);
    const { agent } = await dispatchedAgent({ model });
    const reply = await (await agent.newChat({ tools: [counted] })).send('add');
    expect(ran).toBe(0);
    expect(reply.text).toBe('Sorry.');
    const result = (model.doStreamCalls[1]!.prompt.at(-1) as { content: Array<{ output: { value: string } }> }).content[0]!.output.value;
    expect(JSON.parse(result).error).toMatch(/Invalid arguments for tool "add"/);
  });

  it('a raw tool’s call comes back to the app, and its answer goes on to the provider', async () => {
    const search = rawTool({ name: 'search', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
    const model = scripted([call('c1', 'search', { q: 'tabagent' }), finish('tool-calls')], [...text('Found it.'), finish('stop')]);
    const { agent } = await dispatchedAgent({ model });
    const chat = await agent.newChat({ tools: [search] });
    let reply = await chat.send('Search tabagent');
    expect(model.doStreamCalls).toHaveLength(1);
    expect(reply.toolCalls).toMatchObject([{ name: 'search', arguments: { q: 'tabagent' } }]);
    reply = await chat.sendToolResult(reply.toolCalls[0]!.id, { hits: 1 });
    expect(reply.text).toBe('Found it.');
    expect((model.doStreamCalls[1]!.prompt.at(-1) as { content: Array<{ output: unknown }> }).content[0]!.output).toEqual({ type: 'text', value: '{"hits":1}' });
  });

  it('a call that needs approval waits, survives a reload, and runs once approved; the provider is asked once per hop', async () => {
    const store = await idb();
    let removed = '';
    const remove = tool({ name: 'remove', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => ((removed = path), { deleted: path }) });
    const model = scripted([call('c1', 'remove', { path: 'old.log' }), finish('tool-calls')], [...text('Deleted.'), finish('stop')]);
    const one = await dispatchedAgent({ model }, store);
    const chat = await one.agent.newChat({ tools: [remove] });
    const waiting = await chat.send('Delete old.log');
    expect(waiting.approvals).toHaveLength(1);
    expect(removed).toBe('');
    // A reload: another agent, the same store and provider.
    const two = await dispatchedAgent({ model }, store);
    const again = await two.agent.openChat(chat.id, { tools: [remove] });
    const reply = await again.approve(again.pendingToolCalls[0]!.id);
    expect(removed).toBe('old.log');
    expect(reply.text).toBe('Deleted.');
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it('a server that calls tools forever stops at tabagent’s hop cap, its calls run by tabagent only', async () => {
    let ran = 0;
    const counted = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => (ran++, a + b) });
    const forever = new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream([call('c', 'add', { a: 1, b: 1 }), finish('tool-calls')] as never) }) });
    const { agent } = await dispatchedAgent({ model: forever });
    const error = await (await agent.newChat({ tools: [counted], maxToolHops: 3 })).send('loop').catch((e: unknown) => e);
    expect(isToolHopsError(error)).toBe(true);
    expect(forever.doStreamCalls).toHaveLength(4);
    expect(ran).toBe(3);
  });

  it('a call the provider ran itself (providerExecuted) is not tabagent’s: not run, not stored as a call', async () => {
    let ran = 0;
    const counted = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => (ran++, a + b) });
    const model = scripted([{ ...call('c1', 'add', { a: 1, b: 2 }), providerExecuted: true }, ...text('Done.'), finish('stop')]);
    const { agent } = await dispatchedAgent({ model });
    const reply = await (await agent.newChat({ tools: [counted] })).send('add');
    expect(reply).toMatchObject({ text: 'Done.', toolCalls: [] });
    expect(ran).toBe(0);
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('tabagent’s structured output asks for the provider’s JSON response format and reads the object', async () => {
    const model = scripted([...text('{"city":', '"Paris"}'), finish('stop')]);
    const { agent } = await dispatchedAgent({ model });
    const chat = await agent.newChat({ tools: [add] });
    const reply = await chat.generateObject({ schema: z.object({ city: z.string() }), prompt: 'Capital of France?' });
    expect(reply.object).toEqual({ city: 'Paris' });
    const options = model.doStreamCalls[0]!;
    expect(options.responseFormat).toEqual({ type: 'json', schema: expect.objectContaining({ type: 'object', required: ['city'] }) });
    expect(options.tools).toBeUndefined();
  });
});

describe('the stream, read as a turn', () => {
  const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [], toolChoice: 'auto' as const };

  it('text and reasoning stream as they come; usage, cached tokens and the finish reason are the provider’s', async () => {
    const model = new ServerModel(scripted([{ type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: 'Hmm.' }, { type: 'reasoning-end', id: 'r' }, ...text('Hel', 'lo'), finish('length', 12, 2, 8)]));
    const seen: string[] = [];
    const response = await model.generate(request, { onText: (d) => seen.push(`text:${d}`), onReasoning: (d) => seen.push(`reasoning:${d}`) });
    expect(seen).toEqual(['reasoning:Hmm.', 'text:Hel', 'text:lo']);
    expect(response).toMatchObject({ text: 'Hello', reasoning: 'Hmm.', calls: [], finishReason: 'length', foreign: true, usage: { promptTokens: 4, cachedTokens: 8, completionTokens: 2 } });
  });

  it('calls are told as they are written: the tool-input parts’ deltas, ended once the call arrives, with its place in the calls', async () => {
    const model = new ServerModel(
      scripted([
        { type: 'tool-input-start', id: 'c1', toolName: 'add' },
        { type: 'tool-input-delta', id: 'c1', delta: '{"a":1,' },
        { type: 'tool-input-delta', id: 'c1', delta: '"b":2}' },
        { type: 'tool-input-end', id: 'c1' },
        call('c1', 'add', { a: 1, b: 2 }),
        // A call sent whole, with no input parts; and one begun that never came.
        call('c2', 'add', { a: 3, b: 4 }),
        { type: 'tool-input-start', id: 'c3', toolName: 'add' },
        finish('tool-calls'),
      ]),
    );
    const events: unknown[] = [];
    const response = await model.generate(request, { onCallInput: (e) => events.push(e) });
    expect(response.calls).toEqual([{ name: 'add', arguments: { a: 1, b: 2 } }, { name: 'add', arguments: { a: 3, b: 4 } }]);
    expect(events).toEqual([
      { type: 'start', index: 0, name: 'add' },
      { type: 'delta', index: 0, delta: '{"a":1,' },
      { type: 'delta', index: 0, delta: '"b":2}' },
      { type: 'end', index: 0, call: 0 },
      { type: 'start', index: 1, name: 'add' },
      { type: 'delta', index: 1, delta: '{"a":3,"b":4}' },
      { type: 'end', index: 1, call: 1 },
      { type: 'start', index: 2, name: 'add' },
      { type: 'end', index: 2, call: null },
    ]);
  });

  it('generation settings map to the call options, and thinking off to reasoning none', async () => {
    const mock = scripted([...text('ok'), finish('stop')]);
    await new ServerModel(mock).generate({ ...request, generation: { temperature: 0.2, topP: 0.9, maxTokens: 50, seed: 7, thinking: false, stopSequences: ['END'] }, tools: [{ name: 'add', description: 'Add', parameters: { type: 'object' } }], toolChoice: { name: 'add' } });
    expect(mock.doStreamCalls[0]).toMatchObject({ temperature: 0.2, topP: 0.9, maxOutputTokens: 50, seed: 7, stopSequences: ['END'], reasoning: 'none', toolChoice: { type: 'tool', toolName: 'add' } });
  });

  it('a call cut off by the token limit is a truncated call, never a guess', async () => {
    const model = new ServerModel(scripted([{ type: 'tool-call', toolCallId: 'c', toolName: 'add', input: '{"a": 1, "b"' }, finish('length')]));
    const response = await model.generate(request);
    expect(response.calls).toEqual([{ name: 'add', problem: { truncated: true, detail: expect.any(String) } }]);
  });

  it('an error part fails the turn with ModelError and the provider’s message; what was shown went through onText', async () => {
    const model = new ServerModel(scripted([...text('Half'), { type: 'error', error: { name: 'AI_APICallError', message: 'Overloaded' } }]));
    const shown: string[] = [];
    const error = await model.generate(request, { onText: (d) => shown.push(d) }).catch((e: unknown) => e);
    expect(isModelError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'Overloaded', engineError: 'AI_APICallError' });
    expect(shown).toEqual(['Half']);
  });

  it('a stream that ends without its finish part fails the turn with ModelError, its calls unread', async () => {
    const model = new ServerModel(scripted([...text('Let me'), { type: 'tool-call', toolCallId: 'c', toolName: 'add', input: '{"a": 1, "b": 2}' }]));
    const error = await model.generate(request).catch((e: unknown) => e);
    expect(isModelError(error)).toBe(true);
    expect((error as Error).message).toMatch(/ended before the model finished/);
  });

  it('a thrown APICallError becomes ModelError with its message, and nothing of the request that held the key', async () => {
    const key = 'sk-test-SECRET-0123456789';
    const failing = new MockLanguageModelV4({
      doStream: async () => {
        throw new APICallError({ message: 'Unauthorized', url: `https://api.example.com/v1/chat?key=${key}`, requestBodyValues: { apiKey: key }, statusCode: 401, responseHeaders: {}, responseBody: '{}' });
      },
    });
    const error = await new ServerModel(failing).generate(request).catch((e: unknown) => e);
    expect(isModelError(error)).toBe(true);
    expect((error as Error).message).toContain('Unauthorized');
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message, stack: (error as Error).stack, cause: (error as Error).cause })).not.toContain(key);
  });

  it('an abort ends the turn as aborted, with the text shown so far and no calls', async () => {
    const stop = new AbortController();
    const endless = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'Once upon' });
            abortSignal?.addEventListener('abort', () => controller.error(abortSignal.reason));
          },
        }),
      }),
    });
    const response = await new ServerModel(endless).generate(request, { signal: stop.signal, onText: () => stop.abort() });
    expect(response).toMatchObject({ text: 'Once upon', calls: [], finishReason: 'abort' });
    expect(endless.doStreamCalls[0]!.abortSignal?.aborted).toBe(true);
  });
});

describe('the app’s API key', () => {
  it('never lands in IndexedDB or in a chat export (a real provider, @ai-sdk/openai-compatible, over the chat-completions SSE wire format)', async () => {
    const key = 'sk-live-THE-APPS-KEY-9f8e7d6c';
    const sent: Array<{ auth: string | null; body: { tools?: unknown[]; messages: unknown[] } }> = [];
    const replies = [
      [{ delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }] } }, { delta: {}, finish_reason: 'tool_calls' }],
      [{ delta: { role: 'assistant', content: 'It is ' } }, { delta: { content: '5.' } }, { delta: {}, finish_reason: 'stop' }],
    ];
    const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
      sent.push({ auth: new Headers(init?.headers).get('authorization'), body: JSON.parse(String(init?.body)) });
      const chunks = replies[sent.length - 1]!.map((choice) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, ...choice }] })}\n\n`);
      return new Response([...chunks, `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: 20, completion_tokens: 4 } })}\n\n`, 'data: [DONE]\n\n'].join(''), { headers: { 'content-type': 'text/event-stream' } });
    };
    const provider = createOpenAICompatible({ name: 'local', baseURL: 'https://llm.example.com/v1', apiKey: key, fetch: fetch as typeof globalThis.fetch });
    const dbName = `server-key-${Math.random()}`;
    const { agent, loaded } = await dispatchedAgent({ model: provider('served-model') }, await IdbChatStore.open(dbName));
    expect((await loaded).modelId).toBe('served-model');
    const chat = await agent.newChat({ tools: [add] });
    expect((await chat.send('2 + 3?')).text).toBe('It is 5.');
    // The key went where it belongs, and the tools as OpenAI function tools.
    expect(sent.map((s) => s.auth)).toEqual([`Bearer ${key}`, `Bearer ${key}`]);
    expect(sent[0]!.body.tools).toMatchObject([{ type: 'function', function: { name: 'add' } }]);
    const exported = JSON.stringify(await agent.exportChat(chat.id));
    expect(exported).toContain('It is 5.');
    expect(exported).not.toContain(key);
    const db = await openDB(dbName);
    const stored: unknown[] = [];
    for (const name of db.objectStoreNames) stored.push(await db.getAll(name));
    db.close();
    const everything = JSON.stringify(stored);
    expect(everything).toContain('It is 5.');
    expect(everything).not.toContain(key);
  });
});

describe('a provider that does not stop', () => {
  it('a reply past MAX_REPLY_CHARS (the token limit ignored): ModelError, and the stream is cancelled', { timeout: 20_000 }, async () => {
    const chunk = 'x'.repeat(2 ** 20);
    let cancelled = false;
    const endless = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream({
          pull: (controller) => controller.enqueue({ type: 'text-delta', id: 't', delta: chunk }),
          cancel: () => void (cancelled = true),
        }),
      }),
    });
    let received = 0;
    const error = await new ServerModel(endless)
      .generate({ messages: [{ role: 'user', content: 'hi' }], tools: [], toolChoice: 'auto', generation: { maxTokens: 16 } }, { onText: (delta) => (received += delta.length) })
      .catch((caught: unknown) => caught);
    expect(isModelError(error), String(error)).toBe(true);
    expect(received).toBeLessThanOrEqual(MAX_REPLY_CHARS);
    expect(cancelled).toBe(true);
  });
});
