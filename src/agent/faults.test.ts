// The bad inputs and faults of FAULTS.md that can be staged in one thread.
// (Worker deaths, real storage quotas and CSP are in e2e/faults.spec.ts.)
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  isAbortError,
  isAgentClosedError,
  isChatClosedError,
  isDeviceLostError,
  isModelError,
  isToolHopsError,
  isToolResultError,
} from '../errors/index.js';
import { IdbChatStore } from '../store/idb-chat-store.js';
import { toolCallText as call } from '../testing/calls.js';
import { fakeModel } from '../testing/fake-model.js';
import { FAKE_SPEC } from '../model/scripted-model.js';
import { localAgent, localChat } from '../test-support/local-chat.js';
import { tool } from '../tools/define-tool.js';
import { EngineHost } from '../worker/engine-host.js';
import { toolResults as results } from '../test-support/tool-results.js';

const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
describe('the model’s output', () => {
  it('M6: several calls, some valid, some not: each judged on its own, results in call order', async () => {
    const turn = [
      call('add', { a: 1, b: 2 }),
      call('add', { a: 'x' }),
      '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": 2,}\n</tool_call>',
      '<tool_call>\nadd(1, 2)\n</tool_call>',
    ].join('\n');
    // Broken calls: a model without constrained decoding.
    const { chat, fake } = await localChat([turn, 'ok'], { tools: [add], grammar: false });
    await chat.send('go');
    const seen = results(fake.requests[1]!.last);
    expect(seen[0]).toBe('3');
    expect(JSON.parse(seen[1]!).error).toMatch(/Invalid arguments for tool "add": a: /);
    expect(seen[2]).toBe('3'); // a trailing comma and a missing brace: repaired
    expect(JSON.parse(seen[3]!).error).toMatch(/could not be read/);
    // One call to a tool that does not exist returns the whole turn to the caller.
    const unknown = await localChat([`${call('add', { a: 1, b: 1 })}\n${call('nope')}`], { tools: [add], grammar: false });
    const reply = await unknown.chat.send('go');
    expect(reply.toolCalls.map((c) => [c.name, Boolean(c.error)])).toEqual([['add', false], ['nope', true]]);
  });

  it('M7: a model that calls tools forever stops at the cap, its transcript stored', async () => {
    const { chat, store } = await localChat(() => call('add', { a: 1, b: 1 }), { tools: [add], maxToolHops: 3 });
    expect(isToolHopsError(await chat.send('loop').catch((e) => e))).toBe(true);
    expect((await store.messages(chat.id)).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
  });
});

describe('handlers', () => {
  const returning = (value: unknown, onError: 'inform' | 'return') => tool({ name: 'odd', description: '', input: z.object({}), onError, run: () => value });

  it('H2: a result that is not JSON is a clear error naming the tool, before anything is stored', async () => {
    const { chat, store } = await localChat([call('odd')], { tools: [returning(() => 1, 'return')] });
    const error = await chat.send('go').catch((e) => e);
    expect(isToolResultError(error)).toBe(true);
    expect(error.message).toMatch(/tool "odd".*function/);
    expect((await store.messages(chat.id)).map((m) => m.role)).toEqual(['user', 'assistant']);
    const informed = await localChat([call('odd'), 'ok'], { tools: [returning({ n: 10n }, 'inform')] });
    await informed.chat.send('go');
    expect(informed.fake.requests[1]!.last).toMatch(/BigInt at n/);
  });

  it('H4: a huge result reaches the model cut, with a marker it can see', async () => {
    const { chat, fake } = await localChat([call('odd'), 'ok'], { tools: [returning('y'.repeat(50_000), 'return')], maxResultChars: 1000 });
    await chat.send('go');
    const seen = results(fake.requests[1]!.last)[0]!;
    expect(seen.length).toBeLessThan(1100);
    expect(seen).toMatch(/\[truncated: 49\d{3} more characters not shown\]$/);
  });

  it('H5: after an abort a call is never started, and never retried', async () => {
    const runs: string[] = [];
    const controller = new AbortController();
    const slow = tool({
      name: 'slow',
      description: '',
      input: z.object({ n: z.number() }),
      retry: { attempts: 5 },
      run: ({ n }, { signal }) =>
        new Promise((_, reject) => {
          runs.push(`start ${n}`);
          signal.addEventListener('abort', () => reject(new Error('stopped')));
          // The abort comes while the first call runs.
          setTimeout(() => controller.abort(), 20);
        }),
    });
    const { chat } = await localChat([`${call('slow', { n: 1 })}\n${call('slow', { n: 2 })}`], { tools: [slow] });
    const sending = chat.send('go', { signal: controller.signal });
    expect(isAbortError(await sending.catch((e) => e))).toBe(true);
    expect(runs).toEqual(['start 1']);
  });
});

describe('the model failing', () => {
  it('a model error mid-reply rejects the send, keeps what was shown, and the chat goes on', async () => {
    const { chat, store } = await localChat([{ text: 'I was saying something', fault: 'model-error' }, 'fine']);
    expect(isModelError(await chat.send('go').catch((e) => e))).toBe(true);
    expect(await store.messages(chat.id)).toMatchObject([{ role: 'user' }, { role: 'assistant', text: 'I was saying something', finishReason: 'error' }]);
    expect((await chat.send('again')).text).toBe('fine');
  });

  it('W5: a lost device is a typed DeviceLostError, the partial reply kept', async () => {
    const { chat } = await localChat([{ text: 'half a', fault: 'device-lost' }]);
    expect(isDeviceLostError(await chat.send('go').catch((e) => e))).toBe(true);
    expect(chat.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'half a', finishReason: 'error' });
  });

  it('W7: two loads at once on one worker run one after the other: one engine is left, and both callers get it', async () => {
    const host = new EngineHost();
    const { port2 } = new MessageChannel();
    (port2 as unknown as { unref?: () => void }).unref?.();
    host.connect(port2);
    const { respond, record, firstTurn, ...spec } = fakeModel(['first', 'second'])[FAKE_SPEC];
    const load = () => host.load({ kind: 'fake', ...spec, recordRequests: false, firstTurn: 0 }, undefined, respond);
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toEqual(b);
    const request = { messages: [{ role: 'user' as const, content: 'x' }], tools: [], toolChoice: 'auto' as const };
    // One engine answers: the second load's, its script from the start.
    expect((await host.generate(1, request)).text).toBe('first');
    expect((await host.generate(2, request)).text).toBe('second');
  });

  it('W8: aborting one chat’s run leaves another chat’s queued run alone', async () => {
    const { agent } = await localAgent((r) => ({ text: `answer to ${r.last} and some more words`, tokenDelayMs: 5 }));
    const [one, two] = [await agent.newChat(), await agent.newChat()];
    const controller = new AbortController();
    // Once chat one's answer is streaming (chat two's run waits behind it in the worker).
    one.on('text', () => controller.abort());
    const first = one.send('one', { signal: controller.signal });
    const second = two.send('two');
    expect(isAbortError(await first.catch((e) => e))).toBe(true);
    expect((await second).text).toBe('answer to two and some more words');
  });
});

describe('the page’s calls', () => {
  it('P4: work on a closed chat or agent rejects with a typed error', async () => {
    const { agent } = await localAgent(['x']);
    const chat = await agent.newChat();
    chat.close();
    expect(isChatClosedError(await chat.send('hi').catch((e) => e))).toBe(true);
    const other = await agent.newChat();
    agent.close();
    expect(isAgentClosedError(await other.send('hi').catch((e) => e))).toBe(true);
    expect(isAgentClosedError(await agent.newChat().catch((e) => e))).toBe(true);
    expect(isAgentClosedError(await agent.listChats().catch((e) => e))).toBe(true);
  });
});

describe('storage', () => {
  it('S5: a store whose database was deleted (storage cleared) lists no chats, and does not throw', async () => {
    const name = `evicted-${Math.random()}`;
    const store = await IdbChatStore.open(name);
    await store.create({ id: 'a', title: '', createdAt: 1, updatedAt: 1, messageCount: 0, version: 0, settings: { maxToolHops: 5, maxConcurrentTools: 1, toolChoice: 'auto', maxResultChars: 8000 }, tools: [], answers: [] });
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error('blocked: the store did not let go'));
    });
    expect(await store.list()).toEqual([]);
    store.close();
  });

  it('S5: a connection the browser dropped is reopened once, and the write goes through', async () => {
    const store = await IdbChatStore.open(`dropped-${Math.random()}`);
    const transaction = IDBDatabase.prototype.transaction;
    let dropped = false;
    const spy = vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      if (!dropped && args[1] === 'readwrite') {
        dropped = true;
        throw new DOMException('The database connection is closing.', 'InvalidStateError');
      }
      return transaction.apply(this, args);
    });
    await store.create({ id: 'a', title: '', createdAt: 1, updatedAt: 1, messageCount: 0, version: 0, settings: { maxToolHops: 5, maxConcurrentTools: 1, toolChoice: 'auto', maxResultChars: 8000 }, tools: [], answers: [] });
    spy.mockRestore();
    expect(dropped).toBe(true);
    expect((await store.list()).map((c) => c.id)).toEqual(['a']);
    store.close();
  });

  it('S7: chat writes ask for strict durability', async () => {
    const spy = vi.spyOn(IDBDatabase.prototype, 'transaction');
    const store = await IdbChatStore.open(`durable-${Math.random()}`);
    await store.create({ id: 'a', title: '', createdAt: 1, updatedAt: 1, messageCount: 0, version: 0, settings: { maxToolHops: 5, maxConcurrentTools: 1, toolChoice: 'auto', maxResultChars: 8000 }, tools: [], answers: [] });
    const writes = spy.mock.calls.filter((c) => c[1] === 'readwrite');
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((c) => (c[2] as { durability?: string })?.durability === 'strict')).toBe(true);
    spy.mockRestore();
    store.close();
  });
});
