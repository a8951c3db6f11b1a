// Long chats: the stored chat keeps everything, the model sees what fits, and
// no chat dies of its own length. All through the strict fake, whose context
// window refuses a prompt that does not fit, as WebLLM's does.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isContextOverflowError } from '../errors/index.js';
import type { EngineMessage } from '../shared/tool-protocol.js';
import { localChat } from '../test-support/local-chat.js';
import { toolCallText as call } from '../testing/calls.js';
import type { FakeRequest } from '../testing/types.js';
import { rawTool, tool } from '../tools/define-tool.js';
import type { ContextTrim } from './context-window.js';

/** A tool result of 1–3 KB, different each turn. */
const pages = tool({
  name: 'read_page',
  description: 'Read a page of the manual',
  input: z.object({ page: z.number() }),
  run: ({ page }) => ({ page, text: `Page ${page}. ` + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(18 + ((page * 7) % 36)) }),
});
const search = rawTool({ name: 'search_web', description: 'Search the web', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });

/** Each turn: the model reads a page, then answers; every tenth turn it also asks the page to search. */
function script(request: FakeRequest): string {
  const last = request.messages.at(-1)!;
  const turn = /Question (\d+)/.exec(last.content)?.[1];
  if (last.content.includes('<tool_response>') && !/Question \d+\s*$/.test(last.content)) return `Noted, page ${/"page":(\d+)/.exec(last.content)?.[1] ?? '?'}.`;
  return call('read_page', { page: Number(turn ?? 0) });
}

/** Calls and results the model sees must come in pairs: every results message right after a turn with calls, and every turn with calls followed by its results (but the last). */
function orphans(messages: readonly EngineMessage[]): string[] {
  const problems: string[] = [];
  messages.forEach((m, i) => {
    const calls = m.role === 'assistant' && m.content.includes('<tool_call>');
    const results = m.role === 'user' && m.content.startsWith('<tool_response>');
    if (results && !(messages[i - 1]?.role === 'assistant' && messages[i - 1]!.content.includes('<tool_call>'))) problems.push(`results without their call at ${i}`);
    if (calls && i < messages.length - 1 && !messages[i + 1]!.content.startsWith('<tool_response>')) problems.push(`a call without its result at ${i}`);
  });
  return problems;
}

describe('a long chat on a 4096-token window', () => {
  it('200 turns with 1–3 KB tool results: every send succeeds, the model never sees an orphaned call or result, the store keeps all', async () => {
    const { chat, fake, store } = await localChat(script, { tools: [pages] }, { contextWindow: 4096, recordRequests: true });
    const trims: ContextTrim[] = [];
    chat.on('context-trimmed', (t) => trims.push(t));
    for (let i = 1; i <= 200; i++) expect((await chat.send(`Question ${i}: what does page ${i} say?`)).text).toBe(`Noted, page ${i}.`);

    expect((await store.messages(chat.id)).filter((m) => m.role === 'user')).toHaveLength(200);
    for (const request of fake.requests) expect(orphans(request.messages), `request ${request.turn}`).toEqual([]);
    // Every request fit (the fake refuses one that does not), trimmed in blocks: few full re-prefills.
    const hops = fake.requests.length;
    const full = fake.requests.filter((r) => !r.reusedCache).length;
    expect(trims.length).toBeGreaterThan(5);
    expect(full).toBeLessThanOrEqual(Math.ceil(hops / 10));
  }, 60_000);

  it('a raw call still pending survives a trim, and its answer goes on', async () => {
    const outputs = [...Array.from({ length: 12 }, (_, i) => [call('read_page', { page: i }), `Noted, page ${i}.`]).flat(), call('search_web', { q: 'lighthouses' }), 'Found nothing.'];
    const { chat, fake } = await localChat(outputs, { tools: [pages, search] }, { contextWindow: 4096 });
    for (let i = 0; i < 12; i++) await chat.send(`Question ${i}`);
    const pending = (await chat.send('Search for lighthouses')).toolCalls[0]!;
    expect(pending.name).toBe('search_web');
    const reply = await chat.sendToolResult(pending.id, { hits: [] });
    expect(reply.text).toBe('Found nothing.');
    const last = fake.requests.at(-1)!;
    expect(last.messages.some((m) => m.role === 'assistant' && m.content.includes('search_web'))).toBe(true);
    expect(last.messages.some((m) => m.content.includes('Question 0'))).toBe(false);
  });

  it("old oversized results are shortened before whole exchanges go; the model's view is stable between trims", async () => {
    const { chat, fake } = await localChat(script, { tools: [pages] }, { contextWindow: 4096 });
    const trims: ContextTrim[] = [];
    chat.on('context-trimmed', (t) => trims.push(t));
    for (let i = 1; i <= 20; i++) await chat.send(`Question ${i}: what does page ${i} say?`);
    expect(trims.some((t) => t.shortened > 0)).toBe(true);
    expect(fake.requests.some((r) => r.messages.some((m) => m.content.includes('shortened to fit the context window')))).toBe(true);
    // Only the first request and each trim prefill from scratch: between trims every hop reuses the cache.
    expect(fake.requests.filter((r) => !r.reusedCache)).toHaveLength(trims.length + 1);
  });
});

describe('the strategy', () => {
  it("'error' never trims: ContextOverflowError with the counts, nothing written, the chat still usable", async () => {
    const { chat, store } = await localChat(script, { tools: [pages], context: { strategy: 'error' } }, { contextWindow: 4096 });
    let error: unknown;
    for (let i = 1; i <= 20 && !error; i++) error = await chat.send(`Question ${i}: what does page ${i} say?`).then(() => undefined, (e) => e);
    expect(isContextOverflowError(error)).toBe(true);
    expect(error).toMatchObject({ contextWindow: 4096, reservedTokens: 512 });
    expect((error as { promptTokens: number }).promptTokens).toBeGreaterThan(4096 - 512);
    // It failed before the model wrote anything: no half-written turn.
    const stored = await store.messages(chat.id);
    expect(['user', 'tool']).toContain(stored.at(-1)!.role);
    // Every later send is refused before it writes its message: the chat does not grow with refusals.
    expect(isContextOverflowError(await chat.send('One more?').catch((e) => e))).toBe(true);
    expect(await store.messages(chat.id)).toHaveLength(stored.length);
  });

  it('a function the app gives: it chooses where the view starts and may summarise the rest', async () => {
    const seen: number[] = [];
    const { chat, fake } = await localChat(script, {
      tools: [pages],
      context: {
        strategy: ({ messages, keepFrom }) => {
          seen.push(keepFrom);
          return { from: keepFrom, summary: `Summary: ${messages.length} earlier messages about the manual.` };
        },
      },
    }, { contextWindow: 4096 });
    for (let i = 1; i <= 8; i++) await chat.send(`Question ${i}: what does page ${i} say?`);
    expect(seen.length).toBeGreaterThan(0);
    expect(fake.requests.at(-1)!.messages.find((m) => m.role === 'user')!.content).toMatch(/^Summary: \d+ earlier messages/);
  });

  it('a current run that cannot fit is a ContextOverflowError, and the chat goes on', async () => {
    const { chat, store } = await localChat(['short answer'], {}, { contextWindow: 1024 });
    const error = await chat.send('word '.repeat(1200)).catch((e) => e);
    expect(isContextOverflowError(error)).toBe(true);
    // Nothing was written: not the message that cannot fit either.
    expect(await store.messages(chat.id)).toEqual([]);
    expect((await chat.send('And a short one?')).text).toBe('short answer');
    expect((await store.messages(chat.id)).map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('when the engine still refuses (an estimate was off)', () => {
  it('trims harder once, in the engine’s own window, and asks again: a chat that assumed a larger window goes on', async () => {
    // The chat believes in a larger window than the model has.
    const { chat } = await localChat(script, { tools: [pages], context: { window: 3000 } }, { contextWindow: 2048 });
    const trims: ContextTrim[] = [];
    chat.on('context-trimmed', (t) => trims.push(t));
    for (let i = 1; i <= 6; i++) expect((await chat.send(`Question ${i}: what does page ${i} say?`)).text).toBe(`Noted, page ${i}.`);
    expect(trims.length).toBeGreaterThan(0);

    // Far off: the harder trim goes by the engine's own window, from its refusal, and the chat goes on.
    const { chat: wrong, fake } = await localChat(script, { tools: [pages], context: { window: 100_000 } }, { contextWindow: 2048 });
    const wrongTrims: ContextTrim[] = [];
    wrong.on('context-trimmed', (t) => wrongTrims.push(t));
    for (let i = 1; i <= 10; i++) expect((await wrong.send(`Question ${i}: what does page ${i} say?`)).text).toBe(`Noted, page ${i}.`);
    expect(wrongTrims.length).toBeGreaterThan(0);
    expect(wrongTrims.every((t) => t.contextWindow === 2048)).toBe(true);
    expect(fake.requests.every((r) => r.promptTokens <= 2048)).toBe(true);
  });

  it('when even the engine’s own window cannot hold the current run, it is a ContextOverflowError with the engine’s counts, and nothing half-written', async () => {
    const { chat } = await localChat(script, { context: { window: 100_000 } }, { contextWindow: 256 });
    const error = await chat.send(`Question: ${'what does this long page say? '.repeat(40)}`).catch((e) => e);
    expect(isContextOverflowError(error)).toBe(true);
    expect(error).toMatchObject({ contextWindow: 256 });
    expect(chat.messages.at(-1)!.role).not.toBe('assistant');
  });
});
