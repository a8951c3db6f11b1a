// A hop's results are written while the next request already goes to the
// model (one write less on the hop's path); what the person sees of that
// answer waits until they are on disk, and a write that fails stops the run.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { StorageQuotaError } from '../errors/index.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import type { CommitMeta } from '../store/records.js';
import type { ChatMessage } from '../shared/chat.js';
import { localAgent } from '../test-support/local-chat.js';
import { WorkerModel } from '../model/worker-model.js';
import { toolCallText as call } from '../testing/calls.js';
import { tool } from '../tools/define-tool.js';

/** A store that holds (or refuses) the write of a hop's results until told. */
class HeldResultsStore extends MemoryChatStore {
  #release!: (ok: boolean) => void;
  readonly released = new Promise<boolean>((resolve) => (this.#release = resolve));
  holding = false;
  release(ok: boolean) {
    this.#release(ok);
  }
  override async append(chatId: string, messages: ChatMessage[], meta: CommitMeta): Promise<number> {
    if (messages.some((m) => m.role === 'tool')) {
      this.holding = true;
      if (!(await this.released)) throw new StorageQuotaError();
    }
    return super.append(chatId, messages, meta);
  }
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

const echo = tool({ name: 'echo', description: 'Echo', input: z.object({ text: z.string() }), run: ({ text }) => ({ text }) });

describe("a hop's results, written while the next request starts", () => {
  it('the next request reaches the model before the results land; nothing of its answer shows, streams or is stored until they do', async () => {
    const store = new HeldResultsStore();
    const { agent, fake } = await localAgent([call('echo', { text: 'hi' }), 'The tool said hi.'], store);
    const chat = await agent.newChat({ tools: [echo] });
    const seen: string[] = [];
    chat.on('model-start', ({ step }) => seen.push(`model-start ${step}`));
    chat.on('hop', ({ hops }) => seen.push(`hop ${hops}`));
    chat.on('text', ({ step, delta }) => seen.push(`text ${step} ${delta}`));
    const run = chat.send('Echo hi');

    await until(() => store.holding && fake.requests.length === 2);
    // The model already has the results (they end its prompt) …
    expect(fake.requests[1]!.last).toBe('<tool_response>\n{"text":"hi"}\n</tool_response>');
    await new Promise((resolve) => setTimeout(resolve, 30));
    // … but the person has seen nothing of the answer, and the chat holds no more than the disk.
    expect(seen).toEqual(['model-start 0']);
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    store.release(true);
    expect((await run).text).toBe('The tool said hi.');
    expect(seen.slice(0, 3)).toEqual(['model-start 0', 'hop 1', 'model-start 1']);
    expect(seen.slice(3).join('')).toContain('text 1');
    expect((await store.messages(chat.id)).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('results that cannot be written stop the run with the storage error: the answer already asked for is never shown or stored, the chat goes on', async () => {
    const store = new HeldResultsStore();
    const { agent, fake } = await localAgent([call('echo', { text: 'hi' }), 'The tool said hi.', 'Hello again.'], store);
    const chat = await agent.newChat({ tools: [echo] });
    const texts: string[] = [];
    chat.on('text', ({ delta }) => texts.push(delta));
    const run = chat.send('Echo hi');
    await until(() => store.holding && fake.requests.length === 2);
    store.release(false);
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageQuotaError);
    expect(error).toMatchObject({ stats: { hops: 0 } });
    expect(texts).toEqual([]);
    const stored = await store.messages(chat.id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    // The call ran and its result was lost: it is pending, marked interrupted, never run again by itself.
    expect(chat.pendingToolCalls).toEqual([expect.objectContaining({ name: 'echo', interrupted: true })]);
  });

  it('an abort while the results are still being written: the send settles only once they land, and they are kept', async () => {
    const store = new HeldResultsStore();
    const { agent, fake } = await localAgent([call('echo', { text: 'hi' }), { text: 'The tool said hi, slowly.', tokenDelayMs: 20 }], store);
    const chat = await agent.newChat({ tools: [echo] });
    const controller = new AbortController();
    let settled = false;
    const run = chat.send('Echo hi', { signal: controller.signal }).finally(() => (settled = true));
    await until(() => store.holding && fake.requests.length === 2);
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The chat is not let go while the write is on its way.
    expect(settled).toBe(false);
    store.release(true);
    expect((await run.catch((e: unknown) => e)) as Error).toMatchObject({ name: 'AbortError' });
    // Kept: the results, then what the answer had said (shown once they landed), marked interrupted.
    const stored = await store.messages(chat.id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(stored[3]).toMatchObject({ finishReason: 'abort' });
    expect('The tool said hi, slowly.'.startsWith((stored[3] as { text: string }).text)).toBe(true);
  });
  it('the results write starts once the next request has left: starting a write costs the page its IndexedDB calls, which then overlap the model', async () => {
    const order: string[] = [];
    class OrderStore extends MemoryChatStore {
      override async append(chatId: string, messages: ChatMessage[], meta: CommitMeta): Promise<number> {
        if (messages.some((m) => m.role === 'tool')) order.push('results write');
        return super.append(chatId, messages, meta);
      }
    }
    const { agent } = await localAgent([call('echo', { text: 'hi' }), 'The tool said hi.'], new OrderStore());
    const chat = await agent.newChat({ tools: [echo] });
    const generate = WorkerModel.prototype.generate;
    const spy = vi.spyOn(WorkerModel.prototype, 'generate').mockImplementation(function (this: WorkerModel, ...args) {
      order.push('request');
      return generate.apply(this, args);
    });
    try {
      await chat.send('Echo hi');
    } finally {
      spy.mockRestore();
    }
    expect(order).toEqual(['request', 'request', 'results write']);
  });
});
