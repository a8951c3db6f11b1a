// The tool loop through the real worker, comlink and Chromium, with the fake model.
import { expect, test } from './fixtures.js';

test('a managed tool round trip', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const fake = fakeModel([toolCallText('get_weather', { location: 'Boston, MA' }), 'It is sunny in Boston.']);
    const progress: number[] = [];
    const agent = await createAgent({ model: fake, onProgress: (p) => progress.push(p.progress) });
    const seen: unknown[] = [];
    const weather = tool({
      name: 'get_weather',
      description: 'Get a weather forecast for a US city',
      input: z.object({ location: z.string() }),
      run: async ({ location }) => {
        seen.push(location);
        return { forecast: 'sunny' };
      },
    });
    const chat = await agent.newChat({ system: 'You are helpful.', tools: [weather] });
    const reply = await chat.send('What is the weather in Boston?');
    fake.assertComplete();
    agent.close();
    return { text: reply.text, stats: reply.stats, seen, prompt: fake.requests[1]!.messages, progress };
  });
  expect(result.text).toBe('It is sunny in Boston.');
  expect(result.seen).toEqual(['Boston, MA']);
  expect(result.progress).toEqual([1]);
  expect(result.stats).toMatchObject({ hops: 1, toolCalls: 1, modelCalls: 2 });
  expect(result.prompt[0]!.content).toContain('<tools>\n{"type": "function", "function": {"name": "get_weather"');
  expect(result.prompt.at(-1)).toEqual({ role: 'user', content: '<tool_response>\n{"forecast":"sunny"}\n</tool_response>' });
});

test('a raw tool round trip with sendToolResult', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, rawTool, toolCallText } = window.tabagent;
    const fake = fakeModel((request) => (request.turn === 0 ? toolCallText('search_web', { q: 'tabagent' }) : `Found: ${request.last}`));
    const agent = await createAgent({ model: fake });
    const search = rawTool({ name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
    const chat = await agent.newChat({ tools: [search] });
    const first = await chat.send('Search for tabagent');
    const done = await chat.sendToolResult(first.toolCalls[0]!.id, { hits: ['tabagent.dev'] });
    agent.close();
    return { calls: first.toolCalls, text: done.text };
  });
  expect(result.calls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'search_web', arguments: { q: 'tabagent' } }]);
  expect(result.text).toBe('Found: <tool_response>\n{"hits":["tabagent.dev"]}\n</tool_response>');
});

test('a mixed turn: managed run by hand, raw answered, results in call order', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, rawTool, tool, toolCallText, z } = window.tabagent;
    const turn = `${toolCallText('search_web', { q: 'x' })}\n${toolCallText('add', { a: 2, b: 3 })}`;
    const fake = fakeModel([turn, 'done']);
    const agent = await createAgent({ model: fake });
    const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
    const search = rawTool({ name: 'search_web', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } } } });
    const chat = await agent.newChat({ tools: [add, search] });
    const reply = await chat.send('go');
    const names = reply.toolCalls.map((c) => c.name);
    const afterAdd = await chat.runTool(reply.toolCalls.find((c) => c.name === 'add')!);
    const done = await chat.sendToolResult(afterAdd.toolCalls[0]!.id, 'web result');
    agent.close();
    return { names, waiting: afterAdd.toolCalls.map((c) => c.name), text: done.text, last: fake.requests[1]!.last };
  });
  expect(result.names).toEqual(['search_web', 'add']);
  expect(result.waiting).toEqual(['search_web']);
  expect(result.text).toBe('done');
  expect(result.last).toBe('<tool_response>\n"web result"\n</tool_response>\n<tool_response>\n5\n</tool_response>');
});

test('the hop cap stops a model that calls tools forever', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z, isToolHopsError } = window.tabagent;
    const agent = await createAgent({ model: fakeModel(() => toolCallText('ping')) });
    let runs = 0;
    const ping = tool({ name: 'ping', description: 'Ping', input: z.object({}), run: () => ++runs });
    const chat = await agent.newChat({ tools: [ping], maxToolHops: 3 });
    const error = await chat.send('loop').catch((e) => e);
    agent.close();
    return { typed: isToolHopsError(error), name: error.name, hops: error.hops, pending: error.lastReply.toolCalls.length, runs };
  });
  expect(result).toEqual({ typed: true, name: 'ToolHopsError', hops: 3, pending: 1, runs: 3 });
});

test('error policies: inform tells the model, return rejects with a typed error', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z, isToolExecutionError } = window.tabagent;
    const fake = fakeModel((r) => (r.last.includes('tool_response') ? `model saw: ${r.last}` : toolCallText(r.last)));
    const agent = await createAgent({ model: fake });
    const boom = (name: string, onError: 'inform' | 'return') =>
      tool({
        name,
        description: '',
        input: z.object({}),
        onError,
        run: () => {
          throw new Error(`${name} exploded`);
        },
      });
    const chat = await agent.newChat({ tools: [boom('soft', 'inform'), boom('hard', 'return')] });
    const informed = await chat.send('soft');
    const error = await chat.send('hard').catch((e) => e);
    const modelCalls = fake.requests.length;
    agent.close();
    return { informed: informed.text, typed: isToolExecutionError(error), toolName: error.toolName, cause: error.cause?.message, modelCalls };
  });
  expect(result.informed).toBe('model saw: <tool_response>\n{"error":"soft exploded"}\n</tool_response>');
  expect(result).toMatchObject({ typed: true, toolName: 'hard', cause: 'hard exploded', modelCalls: 3 });
});

test('concurrent handlers, results in the order the model asked', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const turn = [300, 10, 150].map((ms, i) => toolCallText('wait', { i, ms })).join('\n');
    const fake = fakeModel([turn, 'ok']);
    const agent = await createAgent({ model: fake });
    const finished: number[] = [];
    let inFlight = 0;
    let peak = 0;
    const wait = tool({
      name: 'wait',
      description: '',
      input: z.object({ i: z.number(), ms: z.number() }),
      run: async ({ i, ms }) => {
        peak = Math.max(peak, ++inFlight);
        await new Promise((r) => setTimeout(r, ms));
        inFlight--;
        finished.push(i);
        return `result ${i}`;
      },
    });
    const chat = await agent.newChat({ tools: [wait], maxConcurrentTools: 3 });
    const started = performance.now();
    await chat.send('go');
    const ms = performance.now() - started;
    agent.close();
    return { finished, peak, last: fake.requests[1]!.last, ms };
  });
  expect(result.peak).toBe(3);
  expect(result.finished).toEqual([1, 2, 0]);
  expect(result.last).toBe(['result 0', 'result 1', 'result 2'].map((r) => `<tool_response>\n"${r}"\n</tool_response>`).join('\n'));
});

test('creating an agent for a WebLLM model without WebGPU rejects with a typed error', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, isWebGPUUnavailableError } = window.tabagent;
    const error = await createAgent({ model: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' }).then((agent) => agent.ready).catch((e) => e);
    return { typed: isWebGPUUnavailableError(error), name: error.name, message: error.message };
  });
  expect(result.typed).toBe(true);
  expect(result.name).toBe('WebGPUUnavailableError');
  expect(result.message).toMatch(/WebGPU is unavailable/);
});
