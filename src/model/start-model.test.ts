// The dispatcher and the fallback chain, with real worker models in
// in-thread "workers" (the strict fake, and a host with no WebGPU), the
// Prompt API's starter as this build has it, and server models through the
// AI SDK's MockLanguageModelV4.
import 'fake-indexeddb/auto';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { isEngineUnavailableError, isModelLoadError, isWebGPUUnavailableError, WebGPUUnavailableError } from '../errors/index.js';
import type { ModelSpec } from '../rpc/worker-protocol.js';
import type { LoadProgress } from '../shared/model.js';
import { IdbChatStore } from '../store/idb-chat-store.js';
import { dispatchedAgent } from '../test-support/server-agent.js';
import { fakeModel } from '../testing/fake-model.js';
import { FAKE_SPEC } from './scripted-model.js';
import { toolCallText } from '../testing/calls.js';
import { tool } from '../tools/define-tool.js';
import { EngineHost } from '../worker/engine-host.js';
import type { Respond } from '../rpc/worker-protocol.js';

/**
 * A worker on a browser without WebGPU: WebLLM fails as it does there, before
 * any download; a GGUF is the fake under its id (Node has no wllama); the fake runs.
 */
class NoGpuHost extends EngineHost {
  readonly specs: ModelSpec[] = [];
  override load(spec: ModelSpec, onProgress?: (p: LoadProgress) => void, respond?: Respond) {
    this.specs.push(spec);
    if (spec.kind === 'webllm') return Promise.reject(new WebGPUUnavailableError('navigator.gpu is absent'));
    if (spec.kind === 'gguf') {
      const { respond: _, record: __, firstTurn, ...fake } = fakeModel(['From the GGUF.'], { modelId: spec.modelId })[FAKE_SPEC];
      return super.load({ kind: 'fake', ...fake, recordRequests: false, firstTurn: firstTurn() }, onProgress);
    }
    return super.load(spec, onProgress, respond);
  }
}

function server(...replies: string[]): MockLanguageModelV4 {
  let next = 0;
  return new MockLanguageModelV4({
    modelId: 'served',
    doStream: async () => {
      const parts = parse(replies[next++] ?? '');
      return { stream: convertArrayToReadableStream([...parts, { type: 'finish', finishReason: { unified: parts.some((p) => p.type === 'tool-call') ? 'tool-calls' : 'stop', raw: undefined }, usage: { inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 2, text: 2, reasoning: undefined } } }] as never) };
    },
  });
}
/** `add(…)` is a call, anything else text. */
function parse(reply: string): Array<Record<string, unknown> & { type: string }> {
  const call = /^add\((.*)\)$/.exec(reply);
  return call ? [{ type: 'tool-call', toolCallId: 'id', toolName: 'add', input: call[1]! }] : [{ type: 'text-delta', id: 't', delta: reply }];
}

const WEBLLM = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });

describe('one fallback chain across engines', () => {
  it('no WebGPU, no Prompt API: each skipped engine says why with its typed error, and the server model answers', async () => {
    const hosts: NoGpuHost[] = [];
    const model = server('Hello from the server.');
    const { agent, loaded, warnings, workers } = await dispatchedAgent({ model: WEBLLM, fallback: ['chrome-builtin', model] }, undefined, () => hosts[hosts.push(new NoGpuHost()) - 1]!);
    expect(await loaded).toMatchObject({ engine: 'server', host: 'page', modelId: 'served' });
    expect(await agent.ready).toMatchObject({ engine: 'server' });
    expect(warnings.map((w) => ({ type: w.type, modelId: w.modelId, engine: 'engine' in w ? w.engine : undefined }))).toEqual([
      { type: 'engine-skipped', modelId: WEBLLM, engine: 'webllm' },
      { type: 'engine-skipped', modelId: 'chrome-builtin', engine: 'prompt-api' },
    ]);
    const [gpu, prompt] = warnings as Array<Extract<(typeof warnings)[number], { type: 'engine-skipped' }>>;
    expect(isWebGPUUnavailableError(gpu!.error)).toBe(true);
    expect(isEngineUnavailableError(prompt!.error)).toBe(true);
    // The skipped engine's worker ended; the page engines need none.
    expect(workers.log).toEqual(['start 1', 'end 1']);
    expect((await (await agent.newChat()).send('hi')).text).toBe('Hello from the server.');
  });

  it('a worker engine after one the device cannot run: the next link loads in its own worker', async () => {
    const { loaded, warnings, workers } = await dispatchedAgent({ model: WEBLLM, fallback: [fakeModel(['hi'])] }, undefined, () => new NoGpuHost());
    expect(await loaded).toMatchObject({ engine: 'fake', host: 'worker' });
    expect(warnings).toHaveLength(1);
    expect(workers.log).toEqual(['start 1', 'end 1', 'start 2']);
  });

  it('a failure that is not the device’s (a failed download) ends the chain with its own error: no later engine is tried', async () => {
    const model = server('never');
    const { agent, loaded, warnings } = await dispatchedAgent({ model: fakeModel(['x'], { load: { fail: 'the network dropped' } }), fallback: [model] });
    const error = await loaded.catch((e: unknown) => e);
    expect(isModelLoadError(error)).toBe(true);
    expect(warnings).toEqual([]);
    expect(agent.modelState).toBe('failed');
  });

  it('the last link’s error is the chain’s when every engine is unavailable', async () => {
    const { loaded, warnings } = await dispatchedAgent({ model: WEBLLM, fallback: ['chrome-builtin'] }, undefined, () => new NoGpuHost());
    expect(isEngineUnavailableError(await loaded.catch((e: unknown) => e))).toBe(true);
    expect(warnings.map((w) => w.modelId)).toEqual([WEBLLM]);
  });

  it('one GGUF behind a model that does not run in a worker (Chrome’s, here absent) is still its fallback', async () => {
    const { loaded, warnings } = await dispatchedAgent({ model: 'chrome-builtin', fallback: 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF' }, undefined, () => new NoGpuHost());
    expect(await loaded).toMatchObject({ modelId: 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF', host: 'worker' });
    expect(warnings.map((w) => w.modelId)).toEqual(['chrome-builtin']);
  });

  it('one GGUF fallback stays in the worker, which tries it without a second start', async () => {
    const hosts: NoGpuHost[] = [];
    const { loaded, workers } = await dispatchedAgent({ model: WEBLLM, fallback: 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF' }, undefined, () => hosts[hosts.push(new NoGpuHost()) - 1]!);
    await loaded.catch(() => undefined);
    expect(hosts[0]!.specs[0]).toMatchObject({ kind: 'webllm', modelId: WEBLLM, fallback: { kind: 'gguf', modelId: 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF' } });
    expect(workers.log[0]).toBe('start 1');
    expect(workers.log.filter((l) => l.startsWith('start'))).toHaveLength(1);
  });
});

describe('a chat stored on one engine, continued on another', () => {
  it('written on a worker engine, read by a server model as text and calls paired with their results', async () => {
    const store = await IdbChatStore.open(`continue-${Math.random()}`);
    const one = await dispatchedAgent({ model: fakeModel([toolCallText('add', { a: 1, b: 2 }), 'It is 3.']) }, store);
    const chat = await one.agent.newChat({ tools: [add] });
    await chat.send('1 + 2?');
    const model = server('Still 3.');
    const two = await dispatchedAgent({ model }, store);
    const again = await two.agent.openChat(chat.id, { tools: [add] });
    expect((await again.send('Sure?')).text).toBe('Still 3.');
    const prompt = model.doStreamCalls[0]!.prompt;
    expect(prompt.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    const [call, result] = [prompt[1]!.content[0] as { toolCallId: string; input: unknown; type: string }, prompt[2]!.content[0] as { toolCallId: string; output: unknown }];
    expect(call).toMatchObject({ type: 'tool-call', toolName: 'add', input: { a: 1, b: 2 } });
    expect(result).toMatchObject({ toolCallId: call.toolCallId, output: { type: 'text', value: '3' } });
    // The fake's markup never reaches the server.
    expect(JSON.stringify(prompt)).not.toContain('<tool_call>');
    expect(prompt[3]!.content).toEqual([{ type: 'text', text: 'It is 3.' }]);
  });

  it('written by a server model, read by a worker engine in its own call format', async () => {
    const store = await IdbChatStore.open(`continue-${Math.random()}`);
    const one = await dispatchedAgent({ model: server('add({"a":2,"b":3})', 'It is 5.') }, store);
    const chat = await one.agent.newChat({ tools: [add] });
    expect((await chat.send('2 + 3?')).text).toBe('It is 5.');
    const fake = fakeModel(['Yes, 5.']);
    const two = await dispatchedAgent({ model: fake }, store);
    const again = await two.agent.openChat(chat.id, { tools: [add] });
    expect((await again.send('Sure?')).text).toBe('Yes, 5.');
    const assistant = fake.requests[0]!.messages.filter((m) => m.role === 'assistant').map((m) => m.content);
    // The server's call, written in the fake's (Hermes) format from the stored call.
    expect(assistant[0]).toContain('<tool_call>');
    expect(assistant[0]).toContain('"name": "add"');
    expect(assistant[1]).toBe('It is 5.');
  });
});

describe('a chain cancelled', () => {
  it('stops the link in flight; no later engine starts, and the agent has no model', async () => {
    const model = server('never');
    const stop = new AbortController();
    const slow = fakeModel(['x'], { load: { ms: 5_000, bytes: 1_000 } });
    const workers = await dispatchedAgent({ model: slow, fallback: [model] }, undefined, undefined, stop.signal);
    // The first link's worker is up, its model downloading.
    await vi.waitFor(() => expect(workers.workers.log).toEqual(['start 1']));
    stop.abort(new DOMException('The user left.', 'AbortError'));
    expect(await workers.loaded.catch((e: unknown) => (e as Error).name)).toBe('AbortError');
    expect(workers.agent.modelState).toBe('idle');
    expect(workers.warnings).toEqual([]);
    expect(workers.workers.log).toEqual(['start 1', 'end 1']);
  });
});

describe('switching engines on one agent', () => {
  it('agent.load moves an open chat from a worker model to a server model and back', async () => {
    const fake = fakeModel(['From the worker.', 'The worker again.']);
    const { agent, loaded, workers } = await dispatchedAgent({ model: fake });
    await loaded;
    const chat = await agent.newChat();
    expect((await chat.send('one')).text).toBe('From the worker.');
    const model = server('From the server.');
    expect(await agent.load(model)).toMatchObject({ engine: 'server', host: 'page' });
    // The worker model was let go of.
    expect(workers.log).toEqual(['start 1', 'end 1']);
    expect((await chat.send('two')).text).toBe('From the server.');
    expect(await agent.load(fake)).toMatchObject({ engine: 'fake', host: 'worker' });
    expect((await chat.send('three')).text).toBe('The worker again.');
    expect(model.doStreamCalls).toHaveLength(1);
  });
});
