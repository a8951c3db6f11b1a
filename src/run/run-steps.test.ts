// A run as an app sees it: its steps, its stream parts, and the rules that
// stop and steer it.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { isAbortError, isDuplicateToolError, isInvalidOptionsError, isMissingToolsError, isToolExecutionError, isToolHopsError, isUnknownToolError } from '../errors/index.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import { toolCallText as call, toolCallsText as calls } from '../testing/calls.js';
import { localAgent, localChat } from '../test-support/local-chat.js';
import { rawTool, tool } from '../tools/define-tool.js';
import type { StreamPart } from './chat-stream.js';
import { hasToolCall, hopCountIs } from './stop-conditions.js';
import type { Step, ToolResultRecord } from '../shared/chat.js';
import type { FakeModel } from '../testing/fake-model.js';

const add = tool({ name: 'add', description: 'Add two numbers', input: z.object({ a: z.number(), b: z.number() }), onError: 'inform', run: ({ a, b }) => a + b });
const lookup = tool({ name: 'lookup', description: 'Look a word up', input: z.object({ q: z.string() }), run: ({ q }) => `found ${q}` });
const answer = rawTool({ name: 'final_answer', description: 'Give the final answer', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } });

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** The system prompt the model read in request `i`: where tool declarations are. */
const systemOf = (fake: FakeModel, i: number) => fake.requests[i]!.messages.find((m) => m.role === 'system')?.content ?? '';

describe('reply.steps', () => {
  it('has one step per model call: text, reasoning, calls, results with what became of them, usage and timings; stats is their sum', async () => {
    let tries = 0;
    const flaky = tool({
      name: 'flaky',
      description: 'Fails once',
      input: z.object({}),
      retry: { attempts: 2 },
      run: () => {
        if (tries++ === 0) throw new Error('busy');
        return 'ok';
      },
    });
    const { chat } = await localChat(
      [`<think>I should add.</think>\n\nAdding.\n${calls([{ name: 'add', arguments: { a: 1, b: 2 } }, { name: 'flaky' }])}`, '<think>Done.</think>\n\nThe sum is 3.'],
      { tools: [add, flaky] },
      { modelId: 'Qwen3-0.6B-q4f16_1-MLC' },
    );
    const reply = await chat.send('1+2?');
    expect(reply.steps).toHaveLength(2);
    const [first, second] = reply.steps as [Step, Step];
    expect(first).toMatchObject({ index: 0, text: 'Adding.', reasoning: 'I should add.', finishReason: 'stop', activeTools: ['add', 'flaky'] });
    expect(first.toolCalls.map((c) => c.name)).toEqual(['add', 'flaky']);
    expect(first.toolResults.map((r) => [r.name, r.content, r.status, r.attempts])).toEqual([
      ['add', '3', 'ok', 1],
      ['flaky', '"ok"', 'ok', 2],
    ]);
    expect(first.toolResults.every((r) => r.durationMs! >= 0)).toBe(true);
    expect(second).toMatchObject({ index: 1, text: 'The sum is 3.', reasoning: 'Done.', toolCalls: [], toolResults: [] });
    for (const step of reply.steps) expect(step.usage.completionTokens).toBeGreaterThan(0);
    const sum = (key: 'promptTokens' | 'completionTokens') => reply.steps.reduce((n, s) => n + s.usage[key], 0);
    expect(reply.stats).toMatchObject({ modelCalls: 2, hops: 1, toolCalls: 2, promptTokens: sum('promptTokens'), completionTokens: sum('completionTokens') });
    expect(reply.stats.modelMs).toBeCloseTo(first.modelMs + second.modelMs, 6);
  });

  it('keeps each result’s outcome and duration in the stored chat, so a reopened chat can show them', async () => {
    const slow = tool({ name: 'slow', description: '', input: z.object({}), timeoutMs: 20, onError: 'inform', run: () => new Promise(() => undefined) });
    const blocked = tool({ name: 'blocked', description: '', input: z.object({}), needsApproval: true, run: () => 'never' });
    const store = new MemoryChatStore();
    const { agent } = await localAgent([calls([{ name: 'slow' }, { name: 'blocked' }, { name: 'add', arguments: { a: 'x', b: 1 } }]), 'Done.'], store, { grammar: false });
    const chat = await agent.newChat({ tools: [slow, blocked, add], maxConcurrentTools: 1, approve: () => false });
    await chat.send('go');
    const reopened = await agent.openChat(chat.id, { tools: [slow, blocked, add] });
    const results = (reopened.messages.find((m) => m.role === 'tool') as { results: ToolResultRecord[] }).results;
    expect(results.map((r) => [r.name, r.status, r.isError, r.attempts])).toEqual([
      ['slow', 'timeout', true, 1],
      ['blocked', 'denied', true, 0],
      ['add', 'invalid', true, 0],
    ]);
    expect(results[0]!.durationMs).toBeGreaterThanOrEqual(15);
    const turn = reopened.messages.find((m) => m.role === 'assistant')!;
    expect(turn).toMatchObject({ activeTools: ['slow', 'blocked', 'add'], promptTokens: expect.any(Number), modelMs: expect.any(Number) });
  });

  it('is on every run error, so an app can show what happened before the failure', async () => {
    const broken = tool({ name: 'broken', description: '', input: z.object({}), run: () => Promise.reject(new Error('disk full')) });
    const hops = await localChat([call('add', { a: 1, b: 1 }), call('add', { a: 2, b: 2 })], { tools: [add], maxToolHops: 1 });
    const hopsError = await hops.chat.send('loop').catch((e) => e);
    expect(isToolHopsError(hopsError)).toBe(true);
    expect(hopsError.steps.map((s: Step) => [s.index, s.toolResults.length])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(hopsError.lastReply.steps).toHaveLength(2);

    const failing = await localChat([call('broken')], { tools: [broken] });
    const failure = await failing.chat.send('go').catch((e) => e);
    expect(isToolExecutionError(failure)).toBe(true);
    expect(failure.steps).toHaveLength(1);
    expect(failure.steps[0].toolCalls[0].name).toBe('broken');

    const stop = new AbortController();
    const hang = tool({ name: 'hang', description: '', input: z.object({}), run: (_, ctx) => (stop.abort(), new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)))) });
    const aborted = await localChat([call('hang')], { tools: [hang] });
    const abortError = await aborted.chat.send('go', { signal: stop.signal }).catch((e) => e);
    expect(isAbortError(abortError)).toBe(true);
    expect(abortError.steps[0].toolResults.map((r: ToolResultRecord) => r.status)).toEqual(['stopped']);
  });
});

describe('stream parts', () => {
  it('come in the order things happen, numbered by step, then exactly one final part', async () => {
    const progress = tool({
      name: 'progress',
      description: '',
      input: z.object({}),
      needsApproval: true,
      run: (_, ctx) => {
        ctx.update({ half: true });
        return 'done';
      },
    });
    const { chat } = await localChat(
      [`<think>Plan.</think>\n\nWorking.\n${call('progress')}`, '<think></think>\n\nAll done.'],
      { tools: [progress], approve: () => true },
      { modelId: 'Qwen3-0.6B-q4f16_1-MLC' },
    );
    const parts = await collect(chat.sendStream('go'));
    const kinds = parts.map((p) => (p.type === 'final' ? 'final' : `${p.type}@${p.step}`));
    // Deltas of one step are merged only when they pile up unread.
    expect(kinds.filter((k, i) => k !== kinds[i - 1])).toEqual([
      'reasoning@0',
      'text@0',
      'tool-input-start@0',
      'tool-input-delta@0',
      'tool-input-end@0',
      'tool-call@0',
      'approval-request@0',
      'tool-progress@0',
      'tool-result@0',
      'step-end@0',
      'text@1',
      'step-end@1',
      'final',
    ]);
    const text = (step: number, type: 'text' | 'reasoning') => parts.map((p) => (p.type === type && p.step === step ? p.text : '')).join('');
    expect([text(0, 'reasoning'), text(0, 'text'), text(1, 'text')]).toEqual(['Plan.', 'Working.', 'All done.']);
    const byType = <T extends StreamPart['type']>(type: T) => parts.find((p): p is Extract<StreamPart, { type: T }> => p.type === type)!;
    expect(byType('tool-call').call).toMatchObject({ name: 'progress', arguments: {} });
    expect(byType('approval-request')).toMatchObject({ toolName: 'progress', input: {} });
    expect(byType('tool-progress').details).toEqual({ half: true });
    expect(byType('tool-result').result).toMatchObject({ name: 'progress', content: '"done"', isError: false, status: 'ok', attempts: 1 });
    expect(byType('step-end')).toMatchObject({ finishReason: 'stop', usage: { completionTokens: expect.any(Number) } });
    const final = parts.at(-1) as Extract<StreamPart, { type: 'final' }>;
    expect(final.reply.steps.map((s) => s.index)).toEqual([0, 1]);
  });

  it('number steps across the whole run, also when the page’s answers continue it', async () => {
    const { chat } = await localChat([`Checking.\n${call('final_answer', { text: 'x' })}`, 'Thanks.'], { tools: [answer] });
    const first = await collect(chat.sendStream('go'));
    const final = first.at(-1) as Extract<StreamPart, { type: 'final' }>;
    const callId = final.reply.toolCalls[0]!.id;
    const rest = await collect(chat.sendToolResultsStream([{ callId, result: 'ok' }]));
    expect(new Set(rest.filter((p) => p.type !== 'final').map((p) => (p as { step: number }).step))).toEqual(new Set([1]));
    expect(rest.map((p) => p.type).slice(-2)).toEqual(['step-end', 'final']);
    expect((rest.at(-1) as Extract<StreamPart, { type: 'final' }>).reply.steps.map((s) => s.index)).toEqual([1]);
  });
});

describe('stopWhen', () => {
  it('hopCountIs(n): resolves after n hops, the next calls pending; the hop cap still rejects', async () => {
    const script = [call('add', { a: 1, b: 1 }), call('add', { a: 2, b: 2 }), call('add', { a: 3, b: 3 })];
    const { chat } = await localChat(script, { tools: [add], stopWhen: hopCountIs(1) });
    const reply = await chat.send('go');
    expect(reply.stats.hops).toBe(1);
    expect(reply.toolCalls.map((c) => c.arguments)).toEqual([{ a: 2, b: 2 }]);
    expect(chat.pendingToolCalls).toHaveLength(1);

    const capped = await localChat(script, { tools: [add], maxToolHops: 1 });
    expect(isToolHopsError(await capped.chat.send('go').catch((e) => e))).toBe(true);
  });

  it('hasToolCall(name): the call is left for the page, never run', async () => {
    const run = vi.fn(() => 'ran');
    const done = tool({ name: 'done', description: 'Finish', input: z.object({ summary: z.string() }), run });
    const { chat } = await localChat([call('add', { a: 1, b: 2 }), call('done', { summary: 'three' })], { tools: [add, done] });
    const reply = await chat.send('go', { stopWhen: hasToolCall('done') });
    expect(run).not.toHaveBeenCalled();
    expect(reply.toolCalls).toMatchObject([{ name: 'done', arguments: { summary: 'three' } }]);
    expect(reply.steps.map((s) => s.toolResults.length)).toEqual([1, 0]);
  });

  it('a condition of its own sees the steps; several combine (any stops); a send’s replace the chat’s', async () => {
    const seen: number[] = [];
    const { chat } = await localChat([call('add', { a: 1, b: 2 }), call('add', { a: 1, b: 3 }), 'Four.', call('add', { a: 5, b: 5 })], {
      tools: [add],
      stopWhen: [() => false, ({ steps }) => (seen.push(steps.length), steps.at(-1)!.toolCalls.some((c) => c.arguments.b === 5))],
    });
    expect((await chat.send('go')).text).toBe('Four.');
    expect(seen).toEqual([1, 2]);
    const stopped = await chat.send('more');
    expect(stopped.toolCalls).toHaveLength(1);
    await chat.cancelToolCalls();
    // Per send: replaces the chat's conditions.
    const again = await localChat([call('add', { a: 1, b: 5 }), 'Six.'], { tools: [add], stopWhen: hasToolCall('add') });
    expect((await again.chat.send('go', { stopWhen: [] })).text).toBe('Six.');
  });

  it('a condition that throws rejects the run; the turn is kept, its calls pending', async () => {
    const { chat } = await localChat([call('add', { a: 1, b: 2 })], { tools: [add], stopWhen: () => { throw new Error('bad condition'); } });
    await expect(chat.send('go')).rejects.toThrow('bad condition');
    expect(chat.pendingToolCalls.map((c) => c.name)).toEqual(['add']);
  });
});

describe('prepareStep and per-send settings', () => {
  it('by default forces the tool choice on the first call only', async () => {
    const { chat, fake } = await localChat([call('add', { a: 1, b: 2 }), 'Three.'], { tools: [add], toolChoice: 'required' });
    await chat.send('go');
    expect(fake.requests.map((r) => r.responseFormat?.type)).toEqual(['structural_tag', 'structural_tag']);
    expect(JSON.stringify(fake.requests[0]!.responseFormat)).toContain('"at_least_one":true');
    expect(JSON.stringify(fake.requests[1]!.responseFormat)).not.toContain('"at_least_one":true');
  });

  it('changes tools, tool choice, generation and system for one model call', async () => {
    const prepareStep = vi.fn(({ hop }: { steps: readonly Step[]; hop: number }) =>
      hop === 0 ? { activeTools: ['lookup'], toolChoice: { name: 'lookup' } as const, generation: { maxTokens: 64 } } : { system: 'Answer in one word.' },
    );
    const { chat, fake } = await localChat([call('lookup', { q: 'cat' }), 'Feline.'], { tools: [add, lookup], system: 'Be kind.', prepareStep });
    const reply = await chat.send('go');
    expect(reply.text).toBe('Feline.');
    expect(prepareStep.mock.calls.map(([s]) => [s.hop, s.steps.length])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(systemOf(fake, 0)).toContain('"lookup"');
    expect(systemOf(fake, 0)).not.toContain('"add"');
    expect(fake.requests[0]!.maxTokens).toBe(64);
    expect(systemOf(fake, 1)).toContain('Answer in one word.');
    expect(systemOf(fake, 1)).toContain('"add"');
    expect(fake.requests[1]!.maxTokens).toBeUndefined();
    expect(reply.steps.map((s) => s.activeTools)).toEqual([['lookup'], ['add', 'lookup']]);
    expect(chat.messages.filter((m) => m.role === 'assistant').map((m) => (m as { activeTools?: string[] }).activeTools)).toEqual([['lookup'], ['add', 'lookup']]);
  });

  it('a send’s generation.stopSequences end the reply before the sequence: never streamed, not stored, the cache kept', async () => {
    const { chat, fake } = await localChat(['Hello there END. More words', 'Next.']);
    const parts = await collect(chat.sendStream('go', { generation: { stopSequences: [' END.'] } }));
    const streamed = parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    expect(streamed).toBe('Hello there');
    const turn = chat.messages.at(-1) as { role: string; raw?: string; text?: string };
    expect(turn).toMatchObject({ role: 'assistant', raw: 'Hello there' });
    await chat.send('more');
    expect(fake.requests[1]!.reusedCache).toBe(true);
  });

  it('stopSequences that are not a list of non-empty strings are InvalidOptionsError, and the chat goes on', async () => {
    const { chat } = await localChat(['Fine.']);
    for (const stopSequences of [[''], 'END', [3]]) {
      const error = await chat.send('go', { generation: { stopSequences: stopSequences as string[] } }).catch((e: unknown) => e);
      expect(isInvalidOptionsError(error)).toBe(true);
    }
    expect((await chat.send('go')).text).toBe('Fine.');
  });

  it('a send’s activeTools, generation and toolChoice hold for that run', async () => {
    const { chat, fake } = await localChat([call('add', { a: 1, b: 2 }), 'Three.'], { tools: [add, lookup], generation: { temperature: 0.5 } });
    await chat.send('go', { activeTools: ['add'], generation: { maxTokens: 100 }, toolChoice: 'required' });
    for (const request of fake.requests) {
      expect(systemOf(fake, fake.requests.indexOf(request))).not.toContain('"lookup"');
      expect(request).toMatchObject({ maxTokens: 100, temperature: 0.5 });
    }
  });

  it('prepareStep picks from all the chat’s tools, also when the send offered fewer', async () => {
    const { chat, fake } = await localChat([call('add', { a: 1, b: 1 }), call('lookup', { q: 'two' }), 'Two.'], {
      tools: [add, lookup],
      prepareStep: ({ hop }) => (hop === 1 ? { activeTools: ['lookup'] } : undefined),
    });
    expect((await chat.send('go', { activeTools: ['add'] })).text).toBe('Two.');
    expect([0, 1, 2].map((i) => [systemOf(fake, i).includes('"add"'), systemOf(fake, i).includes('"lookup"')])).toEqual([
      [true, false],
      [false, true],
      [true, false],
    ]);
  });

  it('refuses settings the tools cannot honour, before anything is written', async () => {
    const { chat } = await localChat(['x'], { tools: [add] });
    expect(isUnknownToolError(await chat.send('go', { activeTools: ['nope'] }).catch((e) => e))).toBe(true);
    expect(isInvalidOptionsError(await chat.send('go', { activeTools: 'add' as never }).catch((e) => e))).toBe(true);
    expect(isUnknownToolError(await chat.send('go', { activeTools: [], toolChoice: { name: 'add' } }).catch((e) => e))).toBe(true);
    expect(chat.messages).toEqual([]);
    const bad = await localChat(['x'], { tools: [add], prepareStep: () => ({ activeTools: ['missing'] }) });
    expect(isUnknownToolError(await bad.chat.send('go').catch((e) => e))).toBe(true);
  });

  it('a call to a tool not offered in that step never runs: the turn comes back to the page', async () => {
    const run = vi.fn(() => 1);
    const hidden = tool({ name: 'hidden', description: '', input: z.object({}), run });
    const { chat } = await localChat([call('hidden')], { tools: [add, hidden], grammar: false });
    const reply = await chat.send('go', { activeTools: ['add'] });
    expect(run).not.toHaveBeenCalled();
    expect(reply.toolCalls).toMatchObject([{ name: 'hidden', errorCode: 'unknown-tool' }]);
  });
});

describe('chat.setTools', () => {
  it('adds and removes tools for the next runs, and the stored chat asks for the new ones', async () => {
    const store = new MemoryChatStore();
    const { agent, fake } = await localAgent([call('lookup', { q: 'dog' }), 'Canine.'], store);
    const chat = await agent.newChat({ tools: [add] });
    await chat.setTools([add, lookup]);
    expect((await chat.send('go')).text).toBe('Canine.');
    expect(fake.requests[0]!.messages[0]!.content).toContain('"lookup"');
    expect(chat.tools.map((t) => t.name)).toEqual(['add', 'lookup']);
    const missing = await agent.openChat(chat.id, { tools: [add] }).catch((e) => e);
    expect(isMissingToolsError(missing) && missing.missing).toEqual(['lookup']);
    await chat.setTools([lookup]);
    expect((await agent.openChat(chat.id, { tools: [lookup] })).tools.map((t) => t.name)).toEqual(['lookup']);
  });

  it('refuses duplicate names and a tool choice that would lose its tool, changing nothing', async () => {
    const { chat } = await localChat(['x'], { tools: [add], toolChoice: { name: 'add' } });
    expect(isDuplicateToolError(await chat.setTools([lookup, lookup]).catch((e) => e))).toBe(true);
    expect(isUnknownToolError(await chat.setTools([lookup]).catch((e) => e))).toBe(true);
    expect(chat.tools.map((t) => t.name)).toEqual(['add']);
  });
});

describe('the page reports a failed raw call', () => {
  it('as { error } or with isError: the model reads {"error": …}, as the inform policy would write it', async () => {
    const three = calls(['a', 'b', 'c'].map((text) => ({ name: 'final_answer', arguments: { text } })));
    const { chat, fake } = await localChat([three, 'Sorry.'], { tools: [answer] });
    const [a, b, c] = (await chat.send('go')).toolCalls;
    await chat.sendToolResult(a!.id, { error: 'The service is down.' });
    await chat.sendToolResults([{ callId: b!.id, result: 'Timed out.', isError: true }]);
    // An object with more than an error is a result like any other.
    await chat.sendToolResult(c!.id, { error: 'none', code: 200 });
    const read = ['{"error":"The service is down."}', '{"error":"Timed out."}', '{"error":"none","code":200}'];
    expect(fake.requests[1]!.last).toBe(read.map((r) => `<tool_response>\n${r}\n</tool_response>`).join('\n'));
    const results = (chat.messages.find((m) => m.role === 'tool') as { results: ToolResultRecord[] }).results;
    expect(results.map((r) => [r.isError, r.status])).toEqual([
      [true, 'error'],
      [true, 'error'],
      [false, 'ok'],
    ]);
  });
});
