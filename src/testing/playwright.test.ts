import { afterEach, describe, expect, it, vi } from 'vitest';
import { modelSpec, type ModelOptions } from '../model/model-session.js';
import { scriptFor } from '../model/scripted-model.js';
import { isFakeGrammarError, isFakeScriptError, isInvalidOptionsError } from '../errors/index.js';
import { WorkerModel } from '../model/worker-model.js';
import { GenerationClient } from '../rpc/generation-channel.js';
import { EngineHost } from '../worker/engine-host.js';
import { toolCallText } from './calls.js';
import { fakeModel } from './fake-model.js';
import { PAGE_FAKE_KEY } from '../model/scripted-model.js';
import { useFakeModel, type PageLike } from './playwright.js';

const QWEN = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
const weather = { name: 'get_weather', description: 'Get a forecast', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } };

/** Playwright's Page, played by this thread: a navigation runs the init scripts; data crosses as JSON, as it does to a page. */
function testPage() {
  const scripts: Array<() => void> = [];
  const page: PageLike = {
    addInitScript: async (script, arg) => void scripts.push(() => script(JSON.parse(JSON.stringify(arg)))),
    evaluate: async (fn, arg) => JSON.parse(JSON.stringify(fn(arg)) ?? 'null'),
  };
  return { page, navigate: () => scripts.forEach((run) => run()) };
}

/** A top-level page's sessionStorage and pagehide, for reloads. */
function stubTab() {
  const stored = new Map<string, string>();
  let leaving: Array<() => void> = [];
  vi.stubGlobal('self', globalThis);
  vi.stubGlobal('top', globalThis);
  vi.stubGlobal('sessionStorage', { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => void stored.set(key, value) });
  vi.stubGlobal('addEventListener', (type: string, listener: () => void) => type === 'pagehide' && leaving.push(listener));
  return {
    /** The page goes: its pagehide listeners run, and its globals are gone. */
    leave() {
      leaving.forEach((listener) => listener());
      leaving = [];
      delete (globalThis as Record<symbol, unknown>)[Symbol.for(PAGE_FAKE_KEY)];
    },
  };
}

/** The model as `createAgent` would load it, with its engine in this thread instead of a worker. */
async function loadInThread(options: ModelOptions): Promise<WorkerModel> {
  const host = new EngineHost();
  const { port1, port2 } = new MessageChannel();
  for (const port of [port1, port2]) (port as unknown as { unref?: () => void }).unref?.();
  host.connect(port2);
  const info = await host.load(await modelSpec(options));
  return new WorkerModel({ generations: new GenerationClient(port1), track: (p) => p }, info, scriptFor(options.model)?.record);
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete (globalThis as Record<symbol, unknown>)[Symbol.for(PAGE_FAKE_KEY)];
});

describe('useFakeModel', () => {
  it('leaves WebLLM models alone on a page without it', async () => {
    await useFakeModel(testPage().page, ['not used']); // not navigated yet: nothing in the page
    expect(await modelSpec({ model: QWEN })).toEqual({ kind: 'webllm', modelId: QWEN, family: undefined, grammar: undefined });
    expect(scriptFor(QWEN)).toBeUndefined();
  });

  it('turns every WebLLM model into the scripted fake, named after it', async () => {
    const { page, navigate } = testPage();
    await useFakeModel(page, ['one', { text: 'two', tokenDelayMs: 1 }], { contextWindow: 8192 });
    navigate();
    expect(await modelSpec({ model: QWEN })).toEqual({
      kind: 'fake', modelId: QWEN, template: undefined, family: undefined, contextWindow: 8192, grammar: true, tokenDelayMs: 0,
      outputs: ['one', { text: 'two', tokenDelayMs: 1 }], load: undefined, firstTurn: 0, recordRequests: true,
    });
    // A self-hosted model too; the app's own family and grammar settings hold, as they would for the real model.
    expect(await modelSpec({ model: { id: 'my-model', modelUrl: 'https://example.com/w/' }, family: 'llama', grammar: false })).toMatchObject({ kind: 'fake', modelId: 'my-model', family: 'llama', grammar: false });
    // A fake the app makes itself stays its own.
    expect(await modelSpec({ model: fakeModel(['mine']) })).toMatchObject({ kind: 'fake', modelId: 'fake-model', outputs: ['mine'] });
    await expect(modelSpec({ model: '  ' })).rejects.toThrow(/must be a WebLLM model id/);
  });

  it('runs the script as fakeModel would, and the test reads what the model received', async () => {
    const { page, navigate } = testPage();
    const fake = await useFakeModel(page, [toolCallText('get_weather', { location: 'Oslo' }, 'llama'), 'Cold.', 'unused']);
    navigate();
    const model = await loadInThread({ model: 'Llama-3.2-1B-Instruct-q4f16_1-MLC' });
    expect(model.info).toMatchObject({ modelId: 'Llama-3.2-1B-Instruct-q4f16_1-MLC', family: 'llama' });
    const first = await model.generate({ messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: [weather], toolChoice: 'auto' });
    expect(first.calls.map((c) => c.name)).toEqual(['get_weather']);
    // Another agent on the page (or a restart) goes on with the script.
    expect(await modelSpec({ model: QWEN })).toMatchObject({ firstTurn: 1 });

    const requests = await fake.requests();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.prompt).toContain('<|start_header_id|>user<|end_header_id|>'); // Llama's own template
    expect(requests[0]!.prompt).toContain('"name": "get_weather"');
    const error = await fake.assertComplete().catch((e) => e);
    expect(isFakeScriptError(error)).toBe(true);
    expect(error.message).toBe("The fake model's script has 3 outputs but only 1 were used.");
  });

  it('is as strict as fakeModel: a call the grammar would refuse fails', async () => {
    const { page, navigate } = testPage();
    await useFakeModel(page, ['<tool_call>\n{"name": "get_wether", "arguments": {}}\n</tool_call>']);
    navigate();
    const model = await loadInThread({ model: QWEN });
    const error = await model.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [weather], toolChoice: 'auto' }).catch((e) => e);
    expect(isFakeGrammarError(error)).toBe(true);
  });

  it('refuses what cannot cross into a page, and says when the page has no fake', async () => {
    const { page } = testPage();
    await expect(useFakeModel(page, (() => 'hi') as never)).rejects.toSatisfy(isInvalidOptionsError);
    await expect(useFakeModel(page, ['hi'], { family: 'nope' as never })).rejects.toSatisfy(isInvalidOptionsError);
    const fake = await useFakeModel(page, ['hi']);
    await expect(fake.requests()).rejects.toThrow(/call useFakeModel before page.goto/);
  });

  it('asks whether the page wanted a WebLLM model when nothing was used', async () => {
    const { page, navigate } = testPage();
    const fake = await useFakeModel(page, ['hi'], { modelId: 'Qwen3-0.6B-q4f16_1-MLC' });
    navigate();
    expect(await modelSpec({ model: QWEN })).toMatchObject({ modelId: 'Qwen3-0.6B-q4f16_1-MLC' });
    await expect(fake.assertComplete()).rejects.toThrow(/has 1 outputs but only 0 were used\. Did the page ask for a WebLLM model/);
  });

  it('goes on with the script after a reload', async () => {
    const tab = stubTab();
    const { page, navigate } = testPage();
    const fake = await useFakeModel(page, ['one', 'two']);
    navigate();
    const request = { turn: 0, messages: [], prompt: 'p', promptTokens: 1, reusedCache: false, last: 'hi' };
    scriptFor(QWEN)!.record!(request); // as the worker's record arrives
    tab.leave();
    navigate();
    expect(await modelSpec({ model: QWEN })).toMatchObject({ firstTurn: 1 });
    expect(await fake.requests()).toEqual([request]);
    // Another useFakeModel on the page starts its own script.
    const other = await useFakeModel(page, ['three']);
    tab.leave();
    navigate();
    expect(await other.requests()).toEqual([]);
  });
});
