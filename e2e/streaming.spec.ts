// Streaming and cancellation through the real worker.
import { expect, test } from './fixtures.js';

test('streamed text arrives in the page before the run ends', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const agent = await createAgent({ model: fakeModel([{ text: words, tokenDelayMs: 10 }]) });
    const chat = await agent.newChat();
    const start = performance.now();
    const times: number[] = [];
    let text = '';
    let finalAt = 0;
    let finalText = '';
    for await (const chunk of chat.sendStream('talk')) {
      if (chunk.type === 'text') {
        times.push(performance.now() - start);
        text += chunk.text;
        document.getElementById('status')!.textContent = text; // what a UI would do
      } else if (chunk.type === 'final') {
        finalAt = performance.now() - start;
        finalText = chunk.reply.text;
      }
    }
    return { chunks: times.length, firstAt: times[0]!, finalAt, same: text === finalText };
  });
  expect(result.chunks).toBeGreaterThan(10);
  expect(result.same).toBe(true);
  // 59 tokens at 10 ms each: the first text shows up long before the end.
  expect(result.finalAt - result.firstAt).toBeGreaterThan(300);
});

test('a multi-hop stream carries every hop’s text and one final chunk', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const fake = fakeModel([`Looking up.\n${toolCallText('lookup', { q: 'a' })}`, `Once more.\n${toolCallText('lookup', { q: 'b' })}`, 'Both found.']);
    const agent = await createAgent({ model: fake });
    const lookup = tool({ name: 'lookup', description: '', input: z.object({ q: z.string() }), run: ({ q }) => `result ${q}` });
    const chat = await agent.newChat({ tools: [lookup] });
    const parts: string[] = [];
    for await (const chunk of chat.sendStream('find')) {
      if (chunk.type === 'text') parts.push(`${chunk.step}:${chunk.text}`);
      if (chunk.type === 'final') parts.push(`final:${chunk.reply.text}:${chunk.reply.stats.hops}`);
    }
    return parts;
  });
  const joined = result.join('');
  expect(joined).not.toContain('tool_call');
  expect(result.filter((p) => p.startsWith('final'))).toEqual(['final:Both found.:2']);
  const hop = (n: number) => result.filter((p) => p.startsWith(`${n}:`)).map((p) => p.slice(2)).join('');
  expect([hop(0), hop(1), hop(2)]).toEqual(['Looking up.', 'Once more.', 'Both found.']);
  expect(result.at(-1)).toBe('final:Both found.:2');
});

test('a stream that ends with raw tool calls carries them in its final chunk', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, rawTool, toolCallText } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([`I need your location.\n${toolCallText('get_location')}`, 'You are in Oslo.']) });
    const where = rawTool({ name: 'get_location', description: '', parameters: { type: 'object', properties: {} } });
    const chat = await agent.newChat({ tools: [where] });
    let calls: Array<{ id: string; name: string }> = [];
    let text = '';
    for await (const chunk of chat.sendStream('where am I?')) {
      if (chunk.type === 'text') text += chunk.text;
      else if (chunk.type === 'final') calls = chunk.reply.toolCalls;
    }
    let answer = '';
    for await (const chunk of chat.sendToolResultsStream([{ callId: calls[0]!.id, result: { city: 'Oslo' } }])) if (chunk.type === 'text') answer += chunk.text;
    return { text, calls: calls.map((c) => c.name), answer };
  });
  expect(result).toEqual({ text: 'I need your location.', calls: ['get_location'], answer: 'You are in Oslo.' });
});

test('abort during generation, streaming and not: AbortError, partial kept, next send works', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, isAbortError } = window.tabagent;
    const long = { text: Array.from({ length: 200 }, (_, i) => `t${i}`).join(' '), tokenDelayMs: 5 };
    const agent = await createAgent({ model: fakeModel([long, long, 'recovered']) });
    const chat = await agent.newChat();
    const controller = new AbortController();
    // Abort once words have been shown (a timer would race a cold worker that has written nothing yet).
    let seen = '';
    const off = chat.on('text', (e) => {
      seen += e.delta;
      if (seen.length > 20) controller.abort();
    });
    const plain = await chat.send('go', { signal: controller.signal }).catch((e) => e);
    off();
    const streamController = new AbortController();
    let streamed = '';
    let streamError: unknown;
    try {
      for await (const chunk of chat.sendStream('again', { signal: streamController.signal })) {
        if (chunk.type === 'text') streamed += chunk.text;
        if (streamed.length > 20) streamController.abort();
      }
    } catch (e) {
      streamError = e;
    }
    const next = await chat.send('and now?');
    const turns = chat.messages.filter((m) => m.role === 'assistant') as Array<{ finishReason: string; text: string }>;
    return { plain: isAbortError(plain), stream: isAbortError(streamError), finish: turns.map((t) => t.finishReason), partialLength: turns[0]!.text.length, next: next.text };
  });
  expect(result.plain).toBe(true);
  expect(result.stream).toBe(true);
  expect(result.finish).toEqual(['abort', 'abort', 'stop']);
  expect(result.partialLength).toBeGreaterThan(0);
  expect(result.partialLength).toBeLessThan(600);
  expect(result.next).toBe('recovered');
});

test('abort during a slow handler: the handler sees its signal abort', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z, isAbortError } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([toolCallText('slow'), 'next']) });
    let sawAbort = false;
    const slow = tool({
      name: 'slow',
      description: '',
      input: z.object({}),
      run: (_, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => ((sawAbort = true), reject(signal.reason)))),
    });
    const chat = await agent.newChat({ tools: [slow] });
    const controller = new AbortController();
    chat.on('tool-start', () => setTimeout(() => controller.abort(), 50));
    const error = await chat.send('go', { signal: controller.signal }).catch((e) => e);
    const next = await chat.send('again');
    return { aborted: isAbortError(error), sawAbort, next: next.text, pending: chat.pendingToolCalls.length };
  });
  expect(result).toEqual({ aborted: true, sawAbort: true, next: 'next', pending: 0 });
});

test('breaking out of the iterator early cancels the run cleanly', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel } = window.tabagent;
    const fake = fakeModel([{ text: Array.from({ length: 300 }, () => 'x').join(' '), tokenDelayMs: 5 }, 'ok']);
    const agent = await createAgent({ model: fake });
    const chat = await agent.newChat();
    const started = performance.now();
    const stream = chat.sendStream('go');
    for await (const chunk of stream) if (chunk.type === 'text') break;
    await stream.reply.catch(() => undefined);
    const stoppedAfter = performance.now() - started;
    const next = await chat.send('next');
    return { stoppedAfter, finish: (chat.messages[1] as { finishReason: string }).finishReason, next: next.text };
  });
  expect(result.finish).toBe('abort');
  expect(result.next).toBe('ok');
  // 600 tokens at 5 ms would take 3 s; the run stopped long before.
  expect(result.stoppedAfter).toBeLessThan(1500);
});
