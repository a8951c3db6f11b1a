// `shared: true` through the real page path (createAgent, ModelSession,
// WorkerConnection, comlink) to engine hosts in this thread: a shared worker
// per model name that every "tab" connects to, or a dedicated worker where
// none can be had.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgentWith } from '../agent/create-agent.js';
import { isWorkerCrashedError } from '../errors/index.js';
import type { LoadProgress } from '../shared/model.js';
import { inThreadSharedWorkers } from '../test-support/in-thread-shared-workers.js';
import { fakeModel } from '../testing/fake-model.js';
import type { ModelWarning } from './agent-model.js';

const slow = { modelId: 'shared-model', load: { ms: 100, bytes: 1000 } };

afterEach(() => vi.unstubAllGlobals());

describe('shared: true', () => {
  it("a second tab's agent gets the model the first loaded: no second load, host 'shared-worker', each chat its own answers", async () => {
    vi.stubGlobal('SharedWorker', class {});
    const workers = inThreadSharedWorkers();
    const createAgent = createAgentWith(workers.launch);
    const first = await createAgent({ model: fakeModel(() => 'from tab one', slow), shared: true, storage: false });
    await first.ready;
    const progress: LoadProgress[] = [];
    const second = await createAgent({ model: fakeModel(() => 'from tab two', slow), shared: true, storage: false, onProgress: (p) => void progress.push(p) });
    const info = await second.ready;
    expect(info.host).toBe('shared-worker');
    expect(first.model.host).toBe('shared-worker');
    expect(progress).toEqual([]);
    expect(workers.launches).toHaveLength(2);
    expect(new Set(workers.launches).size).toBe(1);
    const [one, two] = await Promise.all([first.newChat(), second.newChat()]);
    const [a, b] = await Promise.all([one.send('hi'), two.send('hi')]);
    expect([a.text, b.text]).toEqual(['from tab one', 'from tab two']);
    first.close();
    second.close();
  });

  it('another model gets a shared worker of its own', async () => {
    vi.stubGlobal('SharedWorker', class {});
    const workers = inThreadSharedWorkers();
    const createAgent = createAgentWith(workers.launch);
    const one = await createAgent({ model: fakeModel(['x'], { modelId: 'model-one' }), shared: true, storage: false });
    const two = await createAgent({ model: fakeModel(['y'], { modelId: 'model-two' }), shared: true, storage: false });
    await Promise.all([one.ready, two.ready]);
    expect(new Set(workers.launches).size).toBe(2);
    one.close();
    two.close();
  });

  it("where the browser has no SharedWorker, a dedicated worker runs it, and ModelInfo and a 'not-shared' warning say so", async () => {
    const workers = inThreadSharedWorkers();
    const agent = await createAgentWith(workers.launch)({ model: fakeModel(['alone']), shared: true, storage: false });
    const warnings: ModelWarning[] = [];
    agent.on('model-warning', (w) => warnings.push(w));
    const info = await agent.ready;
    expect(workers.launches).toEqual(['dedicated']);
    expect(info.host).toBe('worker');
    expect(info.notShared).toContain('no SharedWorker');
    expect(warnings).toEqual([expect.objectContaining({ type: 'not-shared', modelId: info.modelId })]);
    expect((await (await agent.newChat()).send('hi')).text).toBe('alone');
    agent.close();
  });

  it('a crash of the shared host reaches every tab as WorkerCrashedError, and each starts again on a new one', async () => {
    vi.stubGlobal('SharedWorker', class {});
    const workers = inThreadSharedWorkers();
    const createAgent = createAgentWith(workers.launch);
    const model = (text: string) => fakeModel(() => ({ text: `${text} and on and on`, tokenDelayMs: 30 }), { modelId: 'shared-model' });
    const tabs = await Promise.all([createAgent({ model: model('one'), shared: true, storage: false }), createAgent({ model: model('two'), shared: true, storage: false })]);
    await Promise.all(tabs.map((tab) => tab.ready));
    const chats = await Promise.all(tabs.map((tab) => tab.newChat()));
    const sends = chats.map((chat) => chat.send('go').catch((e: unknown) => e));
    await new Promise((resolve) => setTimeout(resolve, 50));
    workers.crash(workers.launches[0]!);
    const errors = await Promise.all(sends);
    expect(errors.map(isWorkerCrashedError)).toEqual([true, true]);
    await Promise.all(tabs.map((tab) => tab.restart()));
    expect(tabs.map((tab) => tab.model.host)).toEqual(['shared-worker', 'shared-worker']);
    const replies = await Promise.all(chats.map((chat) => chat.send('again')));
    expect(replies.map((r) => r.text)).toEqual(['one and on and on', 'two and on and on']);
    for (const tab of tabs) tab.close();
  });

  it('a shared host that hangs (no tab can end it) is left behind: every tab hears WorkerCrashedError, and each restart meets on a new one', async () => {
    vi.stubGlobal('SharedWorker', class {});
    const workers = inThreadSharedWorkers();
    const createAgent = createAgentWith(workers.launch);
    const model = (text: string) => fakeModel(() => ({ text: `${text} and on and on`, tokenDelayMs: 30 }), { modelId: 'hanging-model' });
    const options = { shared: true, storage: false as const, workerTimeoutMs: 300, startTimeoutMs: 1_000 };
    const tabs = await Promise.all([createAgent({ model: model('one'), ...options }), createAgent({ model: model('two'), ...options })]);
    await Promise.all(tabs.map((tab) => tab.ready));
    const chats = await Promise.all(tabs.map((tab) => tab.newChat()));
    const sends = chats.map((chat) => chat.send('go').catch((e: unknown) => e));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const hung = workers.launches[0]!;
    workers.hang(hung);
    expect((await Promise.all(sends)).map(isWorkerCrashedError)).toEqual([true, true]);
    await Promise.all(tabs.map((tab) => tab.restart()));
    const names = workers.launches.slice(2);
    expect(names).toHaveLength(2);
    expect(names[0]).not.toBe(hung);
    expect(names[1]).toBe(names[0]);
    const replies = await Promise.all(chats.map((chat) => chat.send('again')));
    expect(replies.map((r) => r.text)).toEqual(['one and on and on', 'two and on and on']);
    for (const tab of tabs) tab.close();
  });
});
