// Restarts through the real worker path (ModelSession, WorkerConnection,
// comlink), with each "worker" one end of a MessageChannel whose other end
// runs the real engine host in this thread. A terminated worker is what stops
// a download in the browser, so the tests watch for `terminate`.
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { isAbortError, isAgentClosedError, isModelLoadError } from '../errors/index.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import { TabSync } from '../store/tab-sync.js';
import { fakeModel } from '../testing/fake-model.js';
import { EngineHost } from '../worker/engine-host.js';
import { AgentModel, type ModelStateChange } from './agent-model.js';
import { ModelSession } from './model-session.js';
import { inThreadWorkers } from '../test-support/in-thread-workers.js';

async function workerAgent(model: ReturnType<typeof fakeModel>, silent: number[] = []) {
  const { launch, workers, log } = inThreadWorkers(() => new EngineHost(), silent);
  const slot = new AgentModel((options, signal) => ModelSession.begin(options, launch, signal));
  await slot.load({ model }).loaded;
  const agent = new Agent(slot, {}, { kind: 'memory' }, new MemoryChatStore(), new TabSync(`test-${Math.random()}`, false));
  const states: ModelStateChange[] = [];
  agent.on('model-state', (change) => states.push(change));
  return { agent, workers, log, states };
}

/** A model whose download takes a while, and that says when it has begun. */
function slowModel() {
  let begun!: () => void;
  const downloading = new Promise<void>((resolve) => (begun = resolve));
  const model = fakeModel(['from the slow model'], { modelId: 'slow-model', load: { ms: 2_000, bytes: 1e9 } });
  return { model, onProgress: () => begun(), downloading };
}

describe('a restart', () => {
  it('that fails leaves the model failed with its error (not a ready model that rejects every send as aborted); the next restart or load works', async () => {
    const { agent, states } = await workerAgent(fakeModel(() => 'hello'));
    const chat = await agent.newChat();
    const failing = fakeModel(['never'], { modelId: 'big-model', load: { fail: 'out of memory' } });
    const restart = agent.restart({ model: failing });
    const during = chat.send('during the restart').catch((e) => e);
    const error = await restart.catch((e) => e);
    expect(isModelLoadError(error)).toBe(true);

    // A send waiting for the restart hears its error, and so does one after it.
    expect(await during).toBe(error);
    expect(agent.modelState).toBe('failed');
    expect(states).toEqual([{ state: 'failed', modelId: 'big-model', error }]);
    const after = await chat.send('after the restart').catch((e) => e);
    expect(isAbortError(after)).toBe(false);
    expect(after).toBe(error);

    await agent.restart({ model: fakeModel(['back again'], { modelId: 'small-model' }) });
    expect(agent.modelState).toBe('ready');
    expect((await chat.send('and now?')).text).toBe('back again');

    // A load after a failed restart works too.
    const { agent: other } = await workerAgent(fakeModel(['x']));
    await other.restart({ model: failing }).catch(() => undefined);
    expect(other.modelState).toBe('failed');
    await other.load(fakeModel(['loaded'], { modelId: 'loaded-model' }));
    expect(other.model.modelId).toBe('loaded-model');
  });

  it('in flight when the agent closes ends its new worker at once, so the download stops', async () => {
    const { agent, workers, log } = await workerAgent(fakeModel(['x']));
    const slow = slowModel();
    const restart = agent.restart({ model: slow.model, onProgress: slow.onProgress }).catch((e) => e);
    await slow.downloading;
    agent.close();
    expect(workers[1]!.terminated).toBe(true);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    expect(isAgentClosedError(await restart)).toBe(true);
  });

  it('closed while its new worker is still starting ends that worker at once', async () => {
    const { agent, workers, log } = await workerAgent(fakeModel(['x']), [2]);
    const restart = agent.restart().catch((e) => e);
    await expect.poll(() => workers.length).toBe(2);
    agent.close();
    expect(workers[1]!.terminated).toBe(true);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    expect(isAgentClosedError(await restart)).toBe(true);
  });

  it('in flight when a new load starts ends its new worker before the load starts another: two models never hold the GPU at once', async () => {
    const { agent, workers, log, states } = await workerAgent(fakeModel(['x']));
    const chat = await agent.newChat();
    const slow = slowModel();
    const restart = agent.restart({ model: slow.model, onProgress: slow.onProgress }).catch((e) => e);
    await slow.downloading;
    const loading = agent.load(fakeModel(['from the new load'], { modelId: 'new-model' }));
    expect(workers[1]!.terminated).toBe(true);
    // The restart's worker ended before the new load's starts.
    await expect.poll(() => log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3']);
    // The restart was replaced, not failed: an abort, and the agent goes on to the new model.
    expect(isAbortError(await restart)).toBe(true);
    await loading;
    expect(states.map((s) => s.state)).toEqual(['loading', 'ready']);
    expect((await chat.send('and now?')).text).toBe('from the new load');
  });
});
