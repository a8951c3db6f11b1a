// What a closed tab leaves on disk while tools run, and what the hooks and
// handlers that misbehave leave behind: nothing lost, nothing run twice,
// nothing hanging.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StorageQuotaError, isToolHookError } from '../errors/index.js';
import { IdbChatStore } from '../store/idb-chat-store.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import type { ChatStore, CommitMeta } from '../store/records.js';
import type { ChatMessage } from '../shared/chat.js';
import { localAgent } from '../test-support/local-chat.js';
import { toolCallText as call } from '../testing/calls.js';
import { tool } from '../tools/define-tool.js';
import type { Chat } from '../chat/chat.js';

/** A store that stops taking writes when told: what is on disk when the tab closes. */
class SnapshotStore extends MemoryChatStore {
  async snapshot(chatId: string) {
    return { record: (await this.get(chatId))!, messages: await this.messages(chatId) };
  }
}

/** A store whose disk fills up when told: `failWhen` picks the writes refused. */
class FillingStore extends SnapshotStore {
  failWhen: (messages: ChatMessage[], meta: CommitMeta) => boolean = () => false;
  override async append(chatId: string, messages: ChatMessage[], meta: CommitMeta): Promise<number> {
    if (this.failWhen(messages, meta)) throw new StorageQuotaError();
    return super.append(chatId, messages, meta);
  }
}

/** Waits for `check` to hold, for up to a second; true if it did. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (const until = Date.now() + 1000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (await check()) return true;
  }
  return false;
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the journal: a tab closed while tools run', () => {
  it('keeps the turn before a handler starts, and each result as it finishes', async () => {
    const store = new SnapshotStore();
    const started = gate();
    const release = gate();
    const remove = tool({
      name: 'delete_file',
      description: 'Delete',
      input: z.object({ path: z.string() }),
      run: async ({ path }) => {
        if (path === 'b.txt') {
          started.open();
          await release.opened;
        }
        return { deleted: path };
      },
    });
    const { agent } = await localAgent([`${call('delete_file', { path: 'a.txt' })}\n${call('delete_file', { path: 'b.txt' })}`, 'Both gone.'], store);
    const chat = await agent.newChat({ tools: [remove] });
    const run = chat.send('Delete a.txt and b.txt');
    await started.opened;

    // The tab closes now: this is what a reload finds.
    const { record, messages } = await store.snapshot(chat.id);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const [a, b] = (messages[1] as { toolCalls: Array<{ id: string }> }).toolCalls;
    expect(record.answers.map((r) => r.callId)).toEqual([a!.id]);
    expect(record.started).toEqual([b!.id]);

    // Reopened (here: another agent on the same store), the running call is reported, not run again.
    const { agent: reloaded, fake } = await localAgent(['never'], store);
    const reopened = await reloaded.openChat(chat.id, { tools: [remove] });
    expect(reopened.pendingToolCalls).toEqual([expect.objectContaining({ id: b!.id, name: 'delete_file', interrupted: true })]);
    expect(fake.requests).toHaveLength(0);

    release.open();
    expect((await run).text).toBe('Both gone.');
    const after = await store.snapshot(chat.id);
    expect(after.record.started).toEqual([]);
    expect(after.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('keeps a result as it ends, not in call order: B done while A runs is on disk, and a reload finds it answered', async () => {
    const store = new SnapshotStore();
    const startedA = gate();
    const releaseA = gate();
    let doneB = false;
    const work = tool({
      name: 'work',
      description: '',
      input: z.object({ name: z.string() }),
      run: async ({ name }) => {
        if (name === 'A') {
          startedA.open();
          await releaseA.opened;
        } else doneB = true;
        return `${name} done`;
      },
    });
    const { agent } = await localAgent([`${call('work', { name: 'A' })}\n${call('work', { name: 'B' })}`, 'Both done.'], store);
    const chat = await agent.newChat({ tools: [work], maxConcurrentTools: 2 });
    const run = chat.send('Do A and B');
    await startedA.opened;
    expect(await eventually(async () => doneB)).toBe(true);
    const [a, b] = chat.messages[1]!.role === 'assistant' ? chat.messages[1]!.toolCalls : [];

    // The tab closes once B has returned, A still running: B's result is on disk.
    expect(await eventually(async () => (await store.snapshot(chat.id)).record.answers.length > 0)).toBe(true);
    const { record } = await store.snapshot(chat.id);
    expect(record.answers).toEqual([expect.objectContaining({ callId: b!.id, content: '"B done"' })]);
    expect(record.started).toEqual([a!.id]);
    const reopened = await (await localAgent([], store)).agent.openChat(chat.id, { tools: [work] });
    expect(reopened.pendingToolCalls).toEqual([expect.objectContaining({ id: a!.id, interrupted: true })]);

    // The model still reads the results in call order.
    releaseA.open();
    expect((await run).text).toBe('Both done.');
    const tool_ = (await store.messages(chat.id))[2]!;
    expect(tool_.role === 'tool' && tool_.results.map((r) => r.content)).toEqual(['"A done"', '"B done"']);
  });

  it('a call waiting for approval when the tab closes is still pending (it never started)', async () => {
    const store = new SnapshotStore();
    const asked = gate();
    const remove = tool({ name: 'delete_file', description: '', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => ({ deleted: path }) });
    const { agent } = await localAgent([call('delete_file', { path: 'a.txt' }), 'ok'], store);
    const chat = await agent.newChat({ tools: [remove], approve: () => (asked.open(), new Promise(() => undefined)) });
    void chat.send('Delete a.txt').catch(() => undefined);
    await asked.opened;
    const { record, messages } = await store.snapshot(chat.id);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(record.started).toEqual([]);
    const reopened = await (await localAgent([], store)).agent.openChat(chat.id, { tools: [remove] });
    expect(reopened.pendingToolCalls).toEqual([expect.not.objectContaining({ interrupted: true })]);
  });
});

describe('a handler that ran leaves its result or an interrupted mark, whatever fails after it', () => {
  const payment = () => {
    const payments: number[] = [];
    const pay = tool({ name: 'pay', description: '', input: z.object({ cents: z.number() }), run: ({ cents }) => (payments.push(cents), { paid: cents }) });
    return { pay, payments };
  };

  it('afterToolCall throwing after a payment ran: the call comes back interrupted, here and after a reload', async () => {
    const store = new SnapshotStore();
    const { pay, payments } = payment();
    const { agent } = await localAgent([call('pay', { cents: 500 }), 'never'], store);
    const chat = await agent.newChat({
      tools: [pay],
      afterToolCall: () => {
        throw new Error('the audit log is down');
      },
    });
    const error = await chat.send('Pay the invoice').catch((e) => e);
    expect(error).toMatchObject({ name: 'ToolHookError', hook: 'afterToolCall', toolName: 'pay' });
    expect(payments).toEqual([500]);
    const [paid] = chat.pendingToolCalls;
    expect(paid).toMatchObject({ name: 'pay', interrupted: true });
    expect((await store.snapshot(chat.id)).record.started).toEqual([paid!.id]);
    const reopened = await (await localAgent([], store)).agent.openChat(chat.id, { tools: [pay] });
    expect(reopened.pendingToolCalls).toEqual([expect.objectContaining({ id: paid!.id, interrupted: true })]);
  });

  it('a result its journal write failed to keep is kept by the failure commit; the call not yet run stays plain pending', async () => {
    const store = new FillingStore();
    const { pay, payments } = payment();
    const { agent } = await localAgent([`${call('pay', { cents: 500 })}\n${call('pay', { cents: 700 })}`, 'never'], store);
    const chat = await agent.newChat({ tools: [pay] });
    // The write that keeps the first payment's result finds the disk full (once).
    let full = true;
    store.failWhen = (messages, meta) => full && messages.length === 0 && meta.answers.length > 0 && !(full = false);
    const error = await chat.send('Pay both invoices').catch((e) => e);
    expect(error.name).toBe('StorageQuotaError');
    expect(payments).toEqual([500]);
    const [first, second] = chat.messages[1]!.role === 'assistant' ? chat.messages[1]!.toolCalls : [];
    const { record } = await store.snapshot(chat.id);
    expect(record.answers).toEqual([expect.objectContaining({ callId: first!.id, content: '{"paid":500}' })]);
    expect(record.started).toEqual([]);
    expect(chat.pendingToolCalls).toEqual([expect.not.objectContaining({ interrupted: true })]);
    expect(chat.pendingToolCalls.map((c) => c.id)).toEqual([second!.id]);
  });

  it('a result that cannot be kept at all (the disk stays full): the call comes back interrupted', async () => {
    const store = new FillingStore();
    const { pay } = payment();
    const { agent } = await localAgent([`${call('pay', { cents: 500 })}\n${call('pay', { cents: 700 })}`, 'never'], store);
    const chat = await agent.newChat({ tools: [pay] });
    store.failWhen = (messages, meta) => messages.length === 0 && meta.answers.length > 0;
    expect((await chat.send('Pay both invoices').catch((e) => e)).name).toBe('StorageQuotaError');
    const [first] = chat.messages[1]!.role === 'assistant' ? chat.messages[1]!.toolCalls : [];
    expect(chat.pendingToolCalls[0]).toMatchObject({ id: first!.id, interrupted: true });
    expect((await store.snapshot(chat.id)).record.started).toEqual([first!.id]);
  });

  it('a result that is not JSON (return policy): the handler ran, so the call comes back interrupted', async () => {
    const store = new SnapshotStore();
    const odd = tool({ name: 'charge', description: '', input: z.object({}), run: () => new Map([['paid', true]]) });
    const { agent } = await localAgent([call('charge'), 'never'], store);
    const chat = await agent.newChat({ tools: [odd] });
    expect((await chat.send('Charge it').catch((e) => e)).name).toBe('ToolResultError');
    expect(chat.pendingToolCalls).toEqual([expect.objectContaining({ name: 'charge', interrupted: true })]);
    expect((await store.snapshot(chat.id)).record.started).toHaveLength(1);
  });

  it('runTool: afterToolCall throwing, or a result that is not JSON, leaves the call interrupted', async () => {
    const { pay, payments } = payment();
    const { agent } = await localAgent([call('pay', { cents: 500 }), call('charge')], new SnapshotStore());
    const hooked = await agent.newChat({
      tools: [pay],
      afterToolCall: () => {
        throw new Error('the audit log is down');
      },
    });
    const [paying] = (await hooked.send('Pay', { returnToolRequests: true })).toolCalls;
    expect((await hooked.runTool(paying!).catch((e) => e)).name).toBe('ToolHookError');
    expect(payments).toEqual([500]);
    expect(hooked.pendingToolCalls).toEqual([expect.objectContaining({ id: paying!.id, interrupted: true })]);

    const odd = tool({ name: 'charge', description: '', input: z.object({}), run: () => new Map([['paid', true]]) });
    const chat = await agent.newChat({ tools: [odd] });
    const [charging] = (await chat.send('Charge it', { returnToolRequests: true })).toolCalls;
    expect((await chat.runTool(charging!).catch((e) => e)).name).toBe('ToolResultError');
    expect(chat.pendingToolCalls).toEqual([expect.objectContaining({ id: charging!.id, interrupted: true })]);
  });
});

describe('hooks that throw', () => {
  it('beforeToolCall throwing on call 2 of 2: the running call finishes and is kept, send rejects naming the hook, tool and call', async () => {
    const store = new SnapshotStore();
    let finished = 0;
    const slow = tool({
      name: 'slow',
      description: '',
      input: z.object({ n: z.number() }),
      run: async ({ n }) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        finished++;
        return n;
      },
    });
    const { agent } = await localAgent([`${call('slow', { n: 1 })}\n${call('slow', { n: 2 })}`, 'never'], store);
    const chat = await agent.newChat({
      tools: [slow],
      maxConcurrentTools: 2,
      beforeToolCall: (info) => {
        if ((info.input as { n: number }).n === 2) throw new Error('the dialog closed');
      },
    });
    const error = await chat.send('go').catch((e) => e);
    expect(isToolHookError(error)).toBe(true);
    const [first, second] = chat.messages[1]!.role === 'assistant' ? chat.messages[1]!.toolCalls : [];
    expect(error).toMatchObject({ hook: 'beforeToolCall', toolName: 'slow', callId: second!.id });
    expect(error.message).toMatch(/the dialog closed/);
    expect(finished).toBe(1);
    const { record } = await store.snapshot(chat.id);
    expect(record.answers.map((r) => r.callId)).toEqual([first!.id]);
    expect(chat.pendingToolCalls.map((c) => c.id)).toEqual([second!.id]);
  });

  it('an approve callback that rejects is a ToolHookError too, and the chat goes on', async () => {
    const remove = tool({ name: 'delete_file', description: '', input: z.object({}), needsApproval: true, run: () => 'gone' });
    const { agent } = await localAgent([call('delete_file'), 'ok'], new MemoryChatStore());
    const chat = await agent.newChat({ tools: [remove], approve: () => Promise.reject(new Error('no dialog')) });
    const error = await chat.send('go').catch((e) => e);
    expect(error).toMatchObject({ name: 'ToolHookError', hook: 'approve', toolName: 'delete_file' });
    await chat.cancelToolCalls();
    expect((await chat.send('again')).text).toBe('ok');
  });
});

describe('a handler that ignores its signal', () => {
  it('on abort: send settles at once, the call is answered "stopped", the chat is free; the handler finishes detached', async () => {
    let runs = 0;
    const stuck = tool({ name: 'stuck', description: '', input: z.object({}), onError: 'inform', run: () => (runs++, new Promise(() => undefined)) });
    const { agent } = await localAgent([call('stuck'), 'next answer'], new MemoryChatStore());
    const chat = await agent.newChat({ tools: [stuck] });
    const controller = new AbortController();
    const run = chat.send('go', { signal: controller.signal });
    while (runs === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    controller.abort();
    expect((await run.catch((e) => e)).name).toBe('AbortError');
    const tool_ = chat.messages.at(-1)!;
    expect(tool_.role === 'tool' && tool_.results[0]!.content).toMatch(/stopped/);
    expect((await chat.send('again')).text).toBe('next answer');
    expect(runs).toBe(1);
  });
});

describe('two tabs without Web Locks (plain http on a LAN address)', () => {
  /** Tab A sends; while its tool runs, tab B opens the chat (as it is on disk then) and does `inB`. */
  async function twoTabs(inB: (chat: Chat) => Promise<unknown>, [storeA, storeB]: [ChatStore, ChatStore] = sameStore(new SnapshotStore())) {
    let runs = 0;
    const started = gate();
    const release = gate();
    const slow = tool({
      name: 'slow',
      description: '',
      input: z.object({}),
      run: async () => {
        runs++;
        started.open();
        await release.opened;
        return 'done';
      },
    });
    // Two agents on one store, each with its own tab sync and no locks: two tabs.
    const a = await localAgent([call('slow'), 'All done.'], storeA);
    const chat = await a.agent.newChat({ tools: [slow] });
    const b = await localAgent(['from B'], storeB);
    const sending = chat.send('go');
    await started.opened;
    await inB(await b.agent.openChat(chat.id, { tools: [slow] }));
    release.open();
    const outcome = await sending.then((r) => r.text, (e: Error) => e);
    const messages = await storeB.messages(chat.id);
    return { outcome, runs, users: messages.filter((m) => m.role === 'user').length };
  }
  const sameStore = (store: ChatStore): [ChatStore, ChatStore] => [store, store];
  /** Two tabs' own connections to one IndexedDB database, each store with what it last wrote. */
  const idbTabs = async (): Promise<[ChatStore, ChatStore]> => {
    const name = `two-tabs-${Math.random()}`;
    return [await IdbChatStore.open(name), await IdbChatStore.open(name)];
  };

  it('another tab renaming the chat mid-run: the run carries on, nothing is written or run twice', async () => {
    const result = await twoTabs((chat) => chat.rename('Renamed in tab B'));
    expect(result).toMatchObject({ outcome: 'All done.', runs: 1, users: 1 });
  });

  it('another tab answering the running call mid-run: a typed ChatConflictError, the user message and the tool not replayed', async () => {
    const result = await twoTabs((chat) => chat.cancelToolCalls());
    expect(result.outcome).toMatchObject({ name: 'ChatConflictError' });
    expect(result).toMatchObject({ runs: 1, users: 1 });
  });

  it('the same on IndexedDB, each tab with its own connection: the run writing over a record it last wrote is still refused', async () => {
    const result = await twoTabs((chat) => chat.cancelToolCalls(), await idbTabs());
    expect(result.outcome).toMatchObject({ name: 'ChatConflictError' });
    expect(result).toMatchObject({ runs: 1, users: 1 });
  });

  it('the same on IndexedDB, renamed in the other tab: the run carries on', async () => {
    const result = await twoTabs((chat) => chat.rename('Renamed in tab B'), await idbTabs());
    expect(result).toMatchObject({ outcome: 'All done.', runs: 1, users: 1 });
  });
});

describe('the answer being written', () => {
  it('is on disk as it streams; a reload shows it marked interrupted, and regenerate() replaces it', async () => {
    const store = new SnapshotStore();
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const { agent } = await localAgent([{ text: words, tokenDelayMs: 10 }], store);
    const chat = await agent.newChat();
    const controller = new AbortController();
    let shown = '';
    const streaming = chat.sendStream('Tell me a story', { signal: controller.signal });
    const reading = (async () => {
      for await (const chunk of streaming) if (chunk.type === 'text') shown += chunk.text;
    })().catch(() => undefined);
    while (shown.split(' ').length < 40) await new Promise((resolve) => setTimeout(resolve, 5));

    // The tab closes now: the streamed words are on disk (throttled: all but the last few).
    const { record, messages } = await store.snapshot(chat.id);
    expect(messages.map((m) => m.role)).toEqual(['user']);
    expect(record.draft?.text.length).toBeGreaterThan(50);
    expect(shown.startsWith(record.draft!.text)).toBe(true);

    // Reopened elsewhere: the partial answer is there, marked interrupted.
    const reload = await localAgent(['A better story.'], store);
    controller.abort();
    await reading;
    // (Here the first tab's own abort commits first; a closed tab would not, and the draft alone would show.)
    const reopened = await reload.agent.openChat(chat.id);
    const last = reopened.messages.at(-1)!;
    expect(last).toMatchObject({ role: 'assistant', finishReason: 'abort' });
    expect(last.role === 'assistant' && last.text.length).toBeGreaterThan(50);

    const again = await reopened.regenerate();
    expect(again.text).toBe('A better story.');
    expect(reopened.messages.map((m) => (m.role === 'assistant' ? m.text : m.role))).toEqual(['user', 'A better story.']);
    expect((await store.snapshot(chat.id)).messages).toHaveLength(2);
  });

  it('a draft left by a tab that closed mid-stream is shown, interrupted, when the chat is opened', async () => {
    const store = new SnapshotStore();
    const { agent } = await localAgent([], store);
    const chat = await agent.newChat();
    await store.append(chat.id, [{ role: 'user', content: 'Tell me a story', createdAt: 1 }], { expectedVersion: 0, answers: [], updatedAt: 1 });
    await store.saveDraft(chat.id, 'Once upon a time, a lighthouse keeper');
    const reopened = await (await localAgent([], store)).agent.openChat(chat.id);
    expect(reopened.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Once upon a time, a lighthouse keeper', finishReason: 'abort', toolCalls: [] });
    const { record, messages } = await store.snapshot(chat.id);
    expect(record.draft).toBeUndefined();
    expect(messages).toHaveLength(2);
  });

  it('regenerate() refuses when there is no answer to replace, or calls are pending', async () => {
    const { agent } = await localAgent([]);
    const chat = await agent.newChat();
    expect((await chat.regenerate().catch((e) => e)).name).toBe('InvalidOptionsError');
  });
});

describe('interrupted marks', () => {
  it('answering one pending call keeps the other’s interrupted mark', async () => {
    const store = new SnapshotStore();
    const { agent } = await localAgent([], store);
    const chat = await agent.newChat();
    const turn = { role: 'assistant' as const, raw: 'x', text: '', reasoning: '', finishReason: 'stop' as const, createdAt: 1, toolCalls: [{ id: 'a', name: 'search_web', arguments: {} }, { id: 'b', name: 'delete_file', arguments: {} }] };
    await store.append(chat.id, [{ role: 'user', content: 'go', createdAt: 1 }, turn], { expectedVersion: 0, answers: [], started: ['b'], updatedAt: 1 });
    const reopened = await (await localAgent([], store)).agent.openChat(chat.id, { allowMissingTools: true });
    await reopened.sendToolResult('a', { hits: [] });
    expect(reopened.pendingToolCalls).toEqual([expect.objectContaining({ id: 'b', interrupted: true })]);
    expect((await store.snapshot(chat.id)).record.started).toEqual(['b']);
  });
});

describe('a call that keeps what it needs to be resumed (ToolContext.keep)', () => {
  it('is kept with the started call; reopened, it is resumable, and runTool gives the handler what it kept instead of starting anew', async () => {
    const store = new SnapshotStore();
    const kept = gate();
    const runs: unknown[] = [];
    const job = tool({
      name: 'render',
      description: 'Render a video (long)',
      input: z.object({ scene: z.string() }),
      needsApproval: true,
      run: async ({ scene }, ctx) => {
        runs.push(ctx.resumed ?? 'new');
        if (ctx.resumed !== undefined) return `rendered ${scene} (job ${(ctx.resumed as { job: string }).job})`;
        await ctx.keep!({ job: 'job-7' });
        kept.open();
        return new Promise(() => undefined); // the tab closes while it runs
      },
    });
    const { agent } = await localAgent([call('render', { scene: 'intro' }), 'never'], store);
    const chat = await agent.newChat({ tools: [job] });
    const waiting = await chat.send('Render the intro');
    void chat.approve(waiting.approvals![0]!.id);
    await kept.opened;
    const { record } = await store.snapshot(chat.id);
    const [callId] = record.started!;
    expect(record.kept).toEqual({ [callId!]: { job: 'job-7' } });

    const { agent: reloaded, fake } = await localAgent(['It is rendered.'], store);
    const reopened = await reloaded.openChat(chat.id, { tools: [job] });
    const [pending] = reopened.pendingToolCalls;
    expect(pending).toMatchObject({ id: callId, interrupted: true, resumable: true });
    // Resumed without asking again (it was approved when it started), with what it kept.
    const reply = await reopened.runTool(pending!);
    expect(reply.text).toBe('It is rendered.');
    expect(runs).toEqual(['new', { job: 'job-7' }]);
    expect(fake.requests[0]!.last).toContain('rendered intro (job job-7)');
    expect((await store.snapshot(chat.id)).record.kept).toBeUndefined();
  });
});
