// One model shared by several tabs' clients (a shared engine host): loads
// joined, a model held by others never replaced, requests queued one at a
// time across tabs, and a tab's abort or departure never touching another's.
import { describe, expect, it } from 'vitest';
import { isAbortError, isSharedModelConflictError } from '../errors/index.js';
import type { LoadProgress, ModelRequest } from '../shared/model.js';
import { sharedHost } from '../test-support/shared-clients.js';
import { fakeModel } from '../testing/fake-model.js';
import type { EngineHost } from './engine-host.js';

const ask = (content: string): ModelRequest => ({ messages: [{ role: 'user', content }], tools: [], toolChoice: 'auto' });
const MODEL = { modelId: 'shared-model', tokenDelayMs: 5 };

/** Resolves once `host` has the next request its tab sends (it comes on the tab's own port). */
function arrival(host: EngineHost): Promise<void> {
  return new Promise((resolve) => {
    const generate = host.generate.bind(host);
    host.generate = (...args) => {
      host.generate = generate;
      resolve();
      return generate(...args);
    };
  });
}

describe('a model shared by several tabs', () => {
  it('a second tab asking for the same model joins the load in flight: one load, the same info', async () => {
    const host = sharedHost();
    const first: LoadProgress[] = [];
    const second: LoadProgress[] = [];
    const loading = host.tab().load(fakeModel(() => 'a', { ...MODEL, load: { ms: 150, bytes: 1000 } }), (p) => first.push(p));
    const joining = host.tab().load(fakeModel(() => 'b', { ...MODEL, load: { ms: 150, bytes: 1000 } }), (p) => second.push(p));
    const [a, b] = await Promise.all([loading, joining]);
    expect(b.info).toEqual(a.info);
    expect(b.info.host).toBe('shared-worker');
    expect(first.at(-1)?.progress).toBe(1);
    // No second download: the joining tab is never told of one.
    expect(second).toEqual([]);
  });

  it('each tab answers with its own script and ids; requests run one at a time, in the order asked', async () => {
    const host = sharedHost();
    const a = host.tab();
    const b = host.tab();
    const seen: string[] = [];
    const modelA = await a.load(fakeModel((r) => (seen.push(`a:${r.last}`), `A answers ${r.last}`), MODEL));
    const modelB = await b.load(fakeModel((r) => (seen.push(`b:${r.last}`), `B answers ${r.last}`), MODEL));
    const textA: string[] = [];
    const textB: string[] = [];
    // Both tabs' first generation is id 1. Each request reaches the host (on
    // its tab's port) before the next is asked: the order asked is the order
    // of arrival.
    const oneArrives = arrival(a.host);
    const one = modelA.generate(ask('one'), { onText: (d) => textA.push(d) });
    await oneArrives;
    const twoArrives = arrival(b.host);
    const two = modelB.generate(ask('two'), { onText: (d) => textB.push(d) });
    await twoArrives;
    const three = modelA.generate(ask('three'));
    const [ra, rb, ra2] = await Promise.all([one, two, three]);
    expect([ra.text, rb.text, ra2.text]).toEqual(['A answers one', 'B answers two', 'A answers three']);
    expect(textA.join('')).toBe('A answers one');
    expect(textB.join('')).toBe('B answers two');
    expect(seen).toEqual(['a:one', 'b:two', 'a:three']);
  });

  it("a tab's abort stops its own generation only, running or waiting", async () => {
    const host = sharedHost();
    const modelA = await host.tab().load(fakeModel(() => 'a slow and whole answer from A', { ...MODEL, tokenDelayMs: 20 }));
    const modelB = await host.tab().load(fakeModel(() => 'B, whole', { ...MODEL, tokenDelayMs: 20 }));
    const stopB = new AbortController();
    const runningA = modelA.generate(ask('A first'));
    const waitingB = modelB.generate(ask('B waits'), { signal: stopB.signal });
    stopB.abort();
    const b = await waitingB;
    expect(b.finishReason).toBe('abort');
    expect((await runningA).text).toBe('a slow and whole answer from A');

    const stopA = new AbortController();
    const runningA2 = modelA.generate(ask('A again'), { signal: stopA.signal });
    const waitingB2 = modelB.generate(ask('B now'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    stopA.abort();
    expect((await runningA2).finishReason).toBe('abort');
    expect(await waitingB2).toMatchObject({ text: 'B, whole', finishReason: 'stop' });
  });

  it('a tab that leaves frees its place at once: its generation ends, the next tab runs whole', async () => {
    const host = sharedHost();
    const a = host.tab();
    const modelA = await a.load(fakeModel(() => 'A goes on and on and on and on and on', { ...MODEL, tokenDelayMs: 50 }));
    const modelB = await host.tab().load(fakeModel(() => 'B is whole', { ...MODEL, tokenDelayMs: 50 }));
    const runningA = modelA.generate(ask('long'));
    const waitingB = modelB.generate(ask('short'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    const left = performance.now();
    await a.leave();
    expect((await runningA).finishReason).toBe('abort');
    expect(await waitingB).toMatchObject({ text: 'B is whole', finishReason: 'stop' });
    // B's answer streams at once: 10 tokens at 50 ms, not A's 40 first.
    expect(performance.now() - left).toBeLessThan(1500);
  });

  it('a tab asking the host for another model while others hold theirs is refused, typed; theirs runs on', async () => {
    const host = sharedHost();
    const modelA = await host.tab().load(fakeModel(() => 'still here', MODEL));
    const error = await host
      .tab()
      .load(fakeModel(() => 'x', { modelId: 'other-model' }))
      .catch((e: unknown) => e);
    expect(isSharedModelConflictError(error)).toBe(true);
    expect(error).toMatchObject({ loaded: 'shared-model', requested: 'other-model' });
    expect((await modelA.generate(ask('go on'))).text).toBe('still here');
  });

  it('the model lives while any tab holds it and is unloaded when the last leaves', async () => {
    const host = sharedHost();
    const slow = { ...MODEL, load: { ms: 50, bytes: 10 } };
    const a = host.tab();
    const b = host.tab();
    await a.load(fakeModel(() => 'a', slow));
    await b.load(fakeModel(() => 'b', slow));
    await a.leave();
    // B still holds it: a third tab joins with no load.
    const third: LoadProgress[] = [];
    const c = host.tab();
    const modelC = await c.load(fakeModel(() => 'c', slow), (p) => third.push(p));
    expect(third).toEqual([]);
    expect((await modelC.generate(ask('hi'))).text).toBe('c');
    await b.leave();
    await c.leave();
    // Nobody holds it: the next tab loads it afresh.
    const fourth: LoadProgress[] = [];
    await host.tab().load(fakeModel(() => 'd', slow), (p) => fourth.push(p));
    expect(fourth.at(-1)?.progress).toBe(1);
  });

  it('a tab that has left can generate no more', async () => {
    const host = sharedHost();
    const a = host.tab();
    const modelA = await a.load(fakeModel(() => 'a', MODEL));
    await a.leave();
    const result = await modelA.generate(ask('after')).catch((e: unknown) => e);
    expect(isAbortError(result) || (result as { finishReason?: string }).finishReason === 'abort').toBe(true);
  });
});

describe('KV reuse when tabs interleave (the strict fake models WebLLM’s one conversation cache)', () => {
  it('a chat reuses the cache while it alone generates; its hop after another tab’s generation prefills its whole prompt again', async () => {
    const host = sharedHost();
    const fakeA = fakeModel(() => 'a', { ...MODEL, tokenDelayMs: 0 });
    const modelA = await host.tab().load(fakeA);
    const modelB = await host.tab().load(fakeModel(() => 'b', { ...MODEL, tokenDelayMs: 0 }));
    const chat = (model: typeof modelA, name: string) => {
      const messages: ModelRequest['messages'] = [];
      return async () => {
        messages.push({ role: 'user', content: `${name} ${messages.length}` });
        const reply = await model.generate({ messages: [...messages], tools: [], toolChoice: 'auto' });
        messages.push({ role: 'assistant', raw: reply.raw });
      };
    };
    const a = chat(modelA, 'a');
    const b = chat(modelB, 'b');
    await a();
    await a();
    await b();
    await a();
    expect(fakeA.requests.map((r) => r.reusedCache)).toEqual([false, true, false]);
    const [, alone, interleaved] = fakeA.requests;
    expect(interleaved!.promptTokens).toBeGreaterThan(alone!.promptTokens * 2);
  });
});
