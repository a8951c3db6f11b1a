import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { isAbortError } from '../errors/index.js';
import { toolCallText as call } from '../testing/calls.js';
import { localChat } from '../test-support/local-chat.js';
import { rawTool, tool } from '../tools/define-tool.js';
import type { StreamPart } from './chat-stream.js';

const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const chunks: StreamPart[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('sendStream', () => {
  it('streams every hop’s text, never call markup, then exactly one final chunk', async () => {
    const { chat } = await localChat([`Adding.\n${call('add', { a: 1, b: 2 })}`, 'The sum is 3.'], { tools: [add] });
    const chunks = await collect(chat.sendStream('1+2'));
    const texts = chunks.filter((c) => c.type === 'text');
    expect(texts.map((c) => c.text).join('|')).not.toMatch(/tool_call|"add"/);
    expect(texts.filter((c) => c.step === 0).map((c) => c.text).join('')).toBe('Adding.');
    expect(texts.filter((c) => c.step === 1).map((c) => c.text).join('')).toBe('The sum is 3.');
    expect(chunks.filter((c) => c.type === 'final')).toHaveLength(1);
    expect(chunks.at(-1)).toMatchObject({ type: 'final', reply: { text: 'The sum is 3.', stats: { hops: 1 } } });
  });

  it('shows a call as it is written: input parts under the call\'s id, their deltas joining into its arguments, then the call', async () => {
    const { chat } = await localChat([{ text: `Adding.\n${call('add', { a: 12, b: 30 })}`, tokenDelayMs: 1 }, 'The sum is 42.'], { tools: [add] });
    const chunks = await collect(chat.sendStream('12+30'));
    const calls = chunks.filter((c) => c.type.startsWith('tool-') && 'step' in c && c.step === 0);
    const kinds = calls.map((c) => c.type);
    expect(kinds.filter((t) => t === 'tool-input-delta').length).toBeGreaterThanOrEqual(2);
    expect(kinds.filter((t, i) => t !== kinds[i - 1])).toEqual(['tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call', 'tool-result']);
    const made = calls.find((c) => c.type === 'tool-call') as Extract<StreamPart, { type: 'tool-call' }>;
    expect(calls.find((c) => c.type === 'tool-input-start')).toMatchObject({ callId: made.call.id, toolName: 'add' });
    expect(calls.find((c) => c.type === 'tool-input-end')).toEqual({ type: 'tool-input-end', step: 0, callId: made.call.id, call: true });
    const deltas = calls.filter((c) => c.type === 'tool-input-delta') as Array<Extract<StreamPart, { type: 'tool-input-delta' }>>;
    expect(deltas.every((d) => d.callId === made.call.id)).toBe(true);
    expect(deltas.map((d) => d.delta).join('')).toBe(JSON.stringify(made.call.arguments));
  });

  it('an opener in prose that never becomes a call ends its input with no call; the text shows as written', async () => {
    const prose = 'Write <tool_call>\n{"name": "add", "arguments": {"a": 1} like that.';
    const { chat } = await localChat([{ text: prose, tokenDelayMs: 1 }], { tools: [add] }, { grammar: false });
    const chunks = await collect(chat.sendStream('How do I call add?'));
    const start = chunks.find((c) => c.type === 'tool-input-start') as Extract<StreamPart, { type: 'tool-input-start' }>;
    expect(start).toMatchObject({ toolName: 'add' });
    expect(chunks.filter((c) => c.type.startsWith('tool-') && c.type !== 'tool-input-delta')).toEqual([start, { type: 'tool-input-end', step: 0, callId: start.callId, call: false }]);
    expect(chunks.at(-1)).toMatchObject({ type: 'final', reply: { text: prose, toolCalls: [] } });
  });

  it('with thinking off, a reply that is only a call shows no text at all (no tail of the call)', async () => {
    const { chat } = await localChat([call('add', { a: 1, b: 2 }), 'Three.'], { tools: [add], generation: { thinking: false } });
    const chunks = await collect(chat.sendStream('1+2'));
    expect(chunks.filter((c) => c.type === 'text').map((c) => c.text).join('')).toBe('Three.');
    expect(chunks.at(-1)).toMatchObject({ type: 'final', reply: { text: 'Three.', steps: [{ text: '' }, { text: 'Three.' }] } });
  });

  it('ends with the raw calls in the final chunk, and streams the answer to them', async () => {
    const ask = rawTool({ name: 'ask', description: '', parameters: { type: 'object', properties: {} } });
    const { chat } = await localChat([`Let me ask.\n${call('ask')}`, 'Thanks!'], { tools: [ask] });
    const chunks = await collect(chat.sendStream('go'));
    const final = chunks.at(-1) as Extract<StreamPart, { type: 'final' }>;
    expect(final.reply.toolCalls.map((c) => c.name)).toEqual(['ask']);
    const answer = await collect(chat.sendToolResultsStream([{ callId: final.reply.toolCalls[0]!.id, result: 'yes' }]));
    expect(answer.map((c) => (c.type === 'text' ? c.text : c.type === 'final' ? 'FINAL' : '')).join('')).toBe('Thanks!FINAL');
  });

  it('a consumer that stops early cancels the run, and the chat goes on', async () => {
    const { chat } = await localChat([{ text: 'one two three four five six seven eight nine ten', tokenDelayMs: 5 }, 'next']);
    const stream = chat.sendStream('count');
    for await (const chunk of stream) {
      if (chunk.type === 'text') break;
    }
    expect(isAbortError(await stream.reply.catch((e) => e))).toBe(true);
    const last = chat.messages.at(-1)!;
    expect(last).toMatchObject({ role: 'assistant', finishReason: 'abort' });
    expect((last as { text: string }).text.length).toBeLessThan('one two three four five six seven eight nine ten'.length);
    expect((await chat.send('again')).text).toBe('next');
  });

  it('throws the run’s error from the iterator', async () => {
    const { chat } = await localChat([]);
    await expect(collect(chat.sendStream('x'))).rejects.toMatchObject({ name: 'FakeScriptError' });
  });
});

describe('abort', () => {
  it('during generation: AbortError, the partial text kept and marked, the next send works', async () => {
    const { chat } = await localChat([{ text: 'a b c d e f g h i j k l m n o p', tokenDelayMs: 10 }, 'fine']);
    const controller = new AbortController();
    // Once some text has streamed.
    chat.on('text', () => controller.abort());
    const running = chat.send('go', { signal: controller.signal });
    const error = await running.catch((e) => e);
    expect(isAbortError(error)).toBe(true);
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(chat.messages[1]).toMatchObject({ finishReason: 'abort', toolCalls: [] });
    expect((await chat.send('again')).text).toBe('fine');
  });

  it('during a slow handler: its signal aborts, unfinished calls are answered, the next send works', async () => {
    let sawAbort = false;
    const slow = tool({
      name: 'slow',
      description: '',
      input: z.object({}),
      run: (_, { signal }) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(signal.reason);
          });
          // The abort comes while the handler runs.
          setTimeout(() => controller.abort(), 10);
        }),
    });
    const controller = new AbortController();
    const { chat, fake } = await localChat([call('slow'), 'after'], { tools: [slow] });
    const running = chat.send('go', { signal: controller.signal });
    expect(isAbortError(await running.catch((e) => e))).toBe(true);
    expect(sawAbort).toBe(true);
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(chat.pendingToolCalls).toEqual([]);
    expect((await chat.send('again')).text).toBe('after');
    // The stopped call's answer and the new message go to the model as one turn.
    expect(fake.requests[1]!.messages.at(-1)!.content).toMatch(/stopped before this call finished[\s\S]*\nagain$/);
  });

  it('before the run starts: nothing is committed', async () => {
    const { chat } = await localChat(['x']);
    const error = await chat.send('go', { signal: AbortSignal.abort() }).catch((e) => e);
    expect(isAbortError(error)).toBe(true);
    expect(chat.messages).toEqual([]);
  });
});

describe('events', () => {
  it('reports model turns, tool calls with progress, and hops, in order', async () => {
    const steps = tool({
      name: 'steps',
      description: '',
      input: z.object({}),
      run: (_, ctx) => {
        ctx.update({ step: 1 });
        ctx.update({ step: 2 });
        return 'ok';
      },
    });
    const { chat } = await localChat([call('steps'), 'done'], { tools: [steps] });
    const seen: string[] = [];
    for (const type of ['model-start', 'model-end', 'tool-start', 'tool-progress', 'tool-end', 'hop'] as const) {
      chat.on(type, (event) => seen.push(`${type}${'details' in event ? ` ${JSON.stringify(event.details)}` : ''}`));
    }
    const end = vi.fn();
    chat.on('tool-end', end);
    await chat.send('go');
    expect(seen).toEqual(['model-start', 'model-end', 'tool-start', 'tool-progress {"step":1}', 'tool-progress {"step":2}', 'tool-end', 'hop', 'model-start', 'model-end']);
    expect(end).toHaveBeenCalledWith(expect.objectContaining({ toolName: 'steps', content: '"ok"', isError: false, durationMs: expect.any(Number) }));
  });
});
