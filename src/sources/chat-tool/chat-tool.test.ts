// A chat used as a tool of another (chat.asTool), through the real engine
// host and the strict fake: one model serves both chats, as in an app.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isChatToolError, isInvalidOptionsError, isModelError, isToolExecutionError, isToolTimeoutError } from '../../errors/index.js';
import { IdbChatStore } from '../../store/idb-chat-store.js';
import { toolCallText as call } from '../../testing/calls.js';
import { localAgent } from '../../test-support/local-chat.js';
import { rawTool, tool } from '../../tools/define-tool.js';
import type { ChatEvents } from '../../chat/chat-events.js';
import type { FakeRequest } from '../../testing/types.js';

const RESEARCHER = 'You look things up. Answer in one sentence.';
const lookup = tool({ name: 'lookup', description: 'Look a word up', input: z.object({ word: z.string() }), run: ({ word }) => `${word}: a small bird` });

/** The system prompt a request was rendered with (the chat's, with its tool declarations). */
const systemOf = (r: FakeRequest) => r.messages[0]!.content;
const response = (text: string) => `<tool_response>\n${text}\n</tool_response>`;
/** A run that does not settle in time is a deadlock, not a slow test. */
const settles = <T>(p: Promise<T>, ms = 5000) => Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`did not settle in ${ms} ms`)), ms))]);

describe('chat.asTool', () => {
  it('runs the other chat on the same model, with its own system prompt and tools; its answer is the result', async () => {
    const { agent, fake } = await localAgent([
      call('research', { task: 'What is a wren?' }),
      call('lookup', { word: 'wren' }),
      'A wren is a small bird.',
      'Wrens are small birds.',
    ]);
    const researcher = await agent.newChat({ system: RESEARCHER, tools: [lookup] });
    const main = await agent.newChat({ system: 'You help.', tools: [researcher.asTool({ name: 'research', description: 'Research a question' })] });
    const reply = await settles(main.send('Tell me about wrens'));
    expect(reply.text).toBe('Wrens are small birds.');
    // Outer, inner, inner, outer: the outer request is over before the tool runs, so the inner ones are not queued behind it.
    const [outer0, inner0, inner1, outer1] = fake.requests;
    expect(systemOf(outer0!)).toContain('"name": "research"');
    expect(systemOf(outer0!)).not.toContain('"name": "lookup"');
    expect(systemOf(inner0!)).toContain(RESEARCHER);
    expect(systemOf(inner0!)).toContain('"name": "lookup"');
    expect(systemOf(inner0!)).not.toContain('"name": "research"');
    expect(inner0!.last).toBe('What is a wren?');
    expect(inner1!.last).toBe(response('"wren: a small bird"'));
    expect(outer1!.last).toBe(response('"A wren is a small bird."'));
    // The outer counts the call as one hop; the inner chat's hop is its own.
    expect(reply.stats).toMatchObject({ hops: 1, modelCalls: 2, toolCalls: 1 });
    // The call names the chat it ran in.
    expect(reply.steps[0]!.toolResults[0]).toMatchObject({ name: 'research', status: 'ok', chatId: researcher.id });
  });

  it('stores the sub-chat as a real chat the app can open, linked from the stored call', async () => {
    const store = await IdbChatStore.open(`chat-tool-${Math.random()}`);
    const { agent } = await localAgent([call('research', { task: 'Wrens?' }), 'Small birds.', 'Done.'], store);
    const researcher = await agent.newChat({ system: RESEARCHER });
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research' })] });
    await main.send('Go');
    const reopened = await agent.openChat(main.id, { tools: [researcher.asTool({ name: 'research', description: 'Research' })] });
    const results = reopened.messages.find((m) => m.role === 'tool');
    const link = results?.role === 'tool' ? results.results[0]!.chatId : undefined;
    expect(link).toBe(researcher.id);
    const sub = await agent.openChat(link!);
    expect(sub.messages.map((m) => (m.role === 'user' ? m.content : m.role === 'assistant' ? m.text : m.role))).toEqual(['Wrens?', 'Small birds.']);
    expect((await agent.listChats()).map((c) => c.id)).toContain(researcher.id);
  });

  it('keeps the link through an export and an import', async () => {
    const { agent } = await localAgent([call('research', { task: 'Wrens?' }), 'Small birds.', 'Done.']);
    const researcher = await agent.newChat();
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research' })] });
    await main.send('Go');
    const imported = await agent.importChat(JSON.stringify(await agent.exportChat(main.id)));
    const copy = await agent.openChat(imported.id, { allowMissingTools: true });
    const results = copy.messages.find((m) => m.role === 'tool');
    expect(results?.role === 'tool' && results.results[0]!.chatId).toBe(researcher.id);
  });

  it("reports the inner run's text and steps through tool-progress events", async () => {
    const { agent } = await localAgent([call('research', { task: 'Wrens?' }), call('lookup', { word: 'wren' }), 'A small bird.', 'Done.']);
    const researcher = await agent.newChat({ system: RESEARCHER, tools: [lookup] });
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research' })] });
    const progress: Array<ChatEvents['tool-progress']> = [];
    main.on('tool-progress', (e) => progress.push(e));
    await main.send('Go');
    expect(progress.every((e) => e.toolName === 'research' && (e.details as { chatId: string }).chatId === researcher.id)).toBe(true);
    const parts = progress.map((e) => (e.details as { part: { type: string; step: number; text?: string; call?: { name: string }; result?: { content: string } } }).part);
    expect(parts.filter((p) => p.type === 'text').map((p) => p.text).join('')).toBe('A small bird.');
    expect(parts.filter((p) => p.type === 'tool-call').map((p) => p.call!.name)).toEqual(['lookup']);
    expect(parts.filter((p) => p.type === 'tool-result').map((p) => p.result!.content)).toEqual(['"wren: a small bird"']);
    expect(parts.filter((p) => p.type === 'step-end').map((p) => p.step)).toEqual([0, 1]);
  });

  it("keeps each chat's hop cap: the inner's applies inside, the outer counts the call as one hop", async () => {
    // The inner chat makes two hops; the outer allows one, and reaches its answer.
    const { agent } = await localAgent([call('research', { task: 'Wrens?' }), call('lookup', { word: 'a' }), call('lookup', { word: 'b' }), 'Found.', 'Done.']);
    const researcher = await agent.newChat({ tools: [lookup], maxToolHops: 2 });
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research' })], maxToolHops: 1 });
    const reply = await main.send('Go');
    expect(reply.text).toBe('Done.');
    expect(reply.stats.hops).toBe(1);
  });

  it("fails the call when the inner chat passes its own hop cap, through the tool's error policy; the inner chat takes the next task", async () => {
    const { agent, fake } = await localAgent([
      call('research', { task: 'Wrens?' }),
      call('lookup', { word: 'a' }),
      call('lookup', { word: 'b' }),
      'I could not find out.',
      call('research', { task: 'Robins?' }),
      'Red-breasted.',
      'Done.',
    ]);
    const researcher = await agent.newChat({ tools: [lookup], maxToolHops: 1 });
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research', onError: 'inform' })] });
    expect((await main.send('Go')).text).toBe('I could not find out.');
    expect(fake.requests[3]!.last).toBe(response('{"error":"The model was still calling tools after 1 tool hops (maxToolHops); stopped before running more."}'));
    // The calls the inner run left were cancelled: the next task runs.
    expect(researcher.pendingToolCalls).toEqual([]);
    expect((await main.send('And robins?')).text).toBe('Done.');
    // It reads that the call its last run left was cancelled, then the new task (one user turn, as Hermes writes tool results).
    expect(fake.requests[5]!.last).toBe(`${response('{"error":"The chat ran as a tool, and no one there could answer this call."}')}\nRobins?`);
  });

  it("under the 'return' policy, the outer send rejects with the inner failure as the cause", async () => {
    const { agent } = await localAgent([call('research', { task: 'Wrens?' }), { text: 'A sm', fault: 'model-error' }]);
    const researcher = await agent.newChat();
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research' })] });
    const error = await main.send('Go').catch((e: unknown) => e);
    expect(isToolExecutionError(error)).toBe(true);
    expect(isModelError((error as Error).cause)).toBe(true);
    expect(main.pendingToolCalls.map((c) => c.name)).toEqual(['research']);
  });

  it('an abort of the outer run aborts the inner send; both chats stay usable', async () => {
    const { agent } = await localAgent([call('research', { task: 'Wrens?' }), { text: 'a long answer that streams slowly', tokenDelayMs: 20 }, 'Again?', 'Fine.']);
    const researcher = await agent.newChat();
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research' })] });
    const controller = new AbortController();
    researcher.on('text', () => controller.abort());
    const innerEnded = new Promise<void>((resolve) => researcher.on('messages', () => researcher.messages.at(-1)?.role === 'assistant' && resolve()));
    const error = await settles(main.send('Go', { signal: controller.signal }).catch((e: unknown) => e));
    expect((error as Error).name).toBe('AbortError');
    await settles(innerEnded);
    const last = researcher.messages.at(-1);
    expect(last?.role === 'assistant' && last.finishReason).toBe('abort');
    expect(last?.role === 'assistant' && last.text.length).toBeLessThan('a long answer that streams slowly'.length);
    expect((await researcher.send('Still there?')).text).toBe('Again?');
    expect((await main.send('Hello')).text).toBe('Fine.');
  });

  it("a timeout of the call aborts the inner send and fails with ToolTimeoutError", async () => {
    const { agent } = await localAgent([call('research', { task: 'Wrens?' }), { text: 'a long answer that streams slowly', tokenDelayMs: 50 }, 'Took too long.']);
    const researcher = await agent.newChat();
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research', timeoutMs: 100, onError: 'return' })] });
    const error = await settles(main.send('Go').catch((e: unknown) => e));
    expect(isToolTimeoutError(error)).toBe(true);
    await settles(new Promise<void>((resolve) => (researcher.messages.length === 2 ? resolve() : researcher.on('messages', () => resolve()))));
    const last = researcher.messages.at(-1);
    expect(last?.role === 'assistant' && last.finishReason).toBe('abort');
  });

  it('runs two chat tools of one turn concurrently without a deadlock on the model', async () => {
    const { agent } = await localAgent((r) => {
      if (r.last === 'Go') return `${call('birds', { task: 'wren' })}\n${call('fish', { task: 'trout' })}`;
      if (r.last === 'wren' || r.last === 'trout') return `About ${r.last}.`;
      return 'Both done.';
    });
    const birds = await agent.newChat({ system: 'Birds.' });
    const fish = await agent.newChat({ system: 'Fish.' });
    const main = await agent.newChat({ maxConcurrentTools: 2, tools: [birds.asTool({ name: 'birds', description: 'Birds' }), fish.asTool({ name: 'fish', description: 'Fish' })] });
    const reply = await settles(main.send('Go'));
    expect(reply.text).toBe('Both done.');
    expect(reply.steps[0]!.toolResults.map((r) => r.content)).toEqual(['"About wren."', '"About trout."']);
  });

  it('a chat used as a tool of itself fails with ChatToolError (cycle) instead of waiting for itself', async () => {
    const { agent, fake } = await localAgent([call('myself', { task: 'Loop' }), 'Could not.']);
    const chat = await agent.newChat();
    await chat.setTools([chat.asTool({ name: 'myself', description: 'Me', onError: 'inform' })]);
    const reply = await settles(chat.send('Go'));
    expect(reply.text).toBe('Could not.');
    expect(fake.requests[1]!.last).toBe(response(JSON.stringify({ error: `Chat ${chat.id} is waiting on "myself" itself` })));
    // Nothing was sent into it by the call.
    expect(chat.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Go']);
  });

  it('a cycle through another chat fails too, with the chain of chats', async () => {
    const { agent } = await localAgent([call('ask_b', { task: 'Ask A' }), call('ask_a', { task: 'Loop' }), 'B gave up.', 'A done.']);
    const a = await agent.newChat();
    const b = await agent.newChat();
    await b.setTools([a.asTool({ name: 'ask_a', description: 'A', onError: 'return' })]);
    await a.setTools([b.asTool({ name: 'ask_b', description: 'B', onError: 'return' })]);
    const error = await settles(a.send('Go').catch((e: unknown) => e));
    // B's run failed with the cycle (its policy: return); A's call failed with B's failure.
    expect(isToolExecutionError(error)).toBe(true);
    const inner = (error as Error).cause;
    expect(isToolExecutionError(inner)).toBe(true);
    const cycle = (inner as Error).cause;
    expect(isChatToolError(cycle)).toBe(true);
    expect(cycle).toMatchObject({ failure: 'cycle', chatId: a.id, chain: [a.id, b.id], toolName: 'ask_a' });
    // B's calls left by its failure were cancelled: B takes the next task.
    expect(b.pendingToolCalls).toEqual([]);
  });

  it('two chats that are each other’s tool, sent at the same moment: the call that closes the cycle fails at once, the other run goes through', async () => {
    const { agent } = await localAgent((r) => {
      const replies: Record<string, string> = { 'Go A': call('ask_b', { task: 'From A' }), 'Go B': call('ask_a', { task: 'From B' }), 'From A': 'B answers A.', 'From B': 'A answers B.' };
      return replies[r.last] ?? 'Done.';
    });
    const a = await agent.newChat();
    const b = await agent.newChat();
    await a.setTools([b.asTool({ name: 'ask_b', description: 'B', onError: 'inform' })]);
    await b.setTools([a.asTool({ name: 'ask_a', description: 'A', onError: 'inform' })]);
    // Each run holds its chat while it waits on the other's: without a check, both wait forever.
    const [ra, rb] = await settles(Promise.all([a.send('Go A'), b.send('Go B')]));
    const results = [ra!, rb!].map((r) => r.steps[0]!.toolResults[0]!);
    // One call closed the cycle and failed: its model read why, and its run ended.
    const failed = results.filter((r) => r.status === 'error');
    expect(failed).toHaveLength(1);
    const [closer, other] = failed[0] === results[0] ? [a, b] : [b, a];
    expect(JSON.parse(failed[0]!.content)).toEqual({ error: `Chat ${other.id} is waiting on "${failed[0]!.name}" itself` });
    // The other call then ran in the chat that was free again.
    const ran = results.find((r) => r.status === 'ok')!;
    expect(ran).toMatchObject({ chatId: closer.id, content: JSON.stringify(closer === b ? 'B answers A.' : 'A answers B.') });
    expect([ra!.text, rb!.text]).toEqual(['Done.', 'Done.']);
    // Both chats take the next message.
    expect((await a.send('Hello')).text).toBe('Done.');
    expect((await b.send('Hello')).text).toBe('Done.');
  });

  it('the call that closes a cycle across chats fails with ChatToolError (cycle), naming the chats round it', async () => {
    const { agent } = await localAgent((r) => {
      // A's call comes slowly: B's call to A is made (and waits for A's run) first.
      if (r.last === 'Go A') return { text: call('ask_b', { task: 'From A' }), tokenDelayMs: 5 };
      return r.last === 'Go B' ? call('ask_a', { task: 'From B' }) : 'Done.';
    });
    const a = await agent.newChat();
    const b = await agent.newChat();
    await a.setTools([b.asTool({ name: 'ask_b', description: 'B', onError: 'return' })]);
    await b.setTools([a.asTool({ name: 'ask_a', description: 'A', onError: 'inform' })]);
    const waiting = new Promise<void>((resolve) => b.on('tool-start', () => resolve()));
    const sentB = b.send('Go B');
    await waiting;
    // B's run waits on A; A's run now calls B.
    const error = await settles(a.send('Go A').catch((e: unknown) => e));
    expect(isToolExecutionError(error)).toBe(true);
    expect(isChatToolError((error as Error).cause)).toBe(true);
    expect((error as Error).cause).toMatchObject({ failure: 'cycle', toolName: 'ask_b', chatId: b.id, chain: [b.id, a.id] });
    // B's call then reaches A, which under `return` keeps its failed call pending: B's model reads that, and B's run ends.
    const called = (await settles(sentB)).steps[0]!.toolResults[0]!;
    expect(called.status).toBe('error');
    expect(JSON.parse(called.content).error).toMatch(/pending/i);
    await a.cancelToolCalls();
    expect((await a.send('Hello')).text).toBe('Done.');
  });

  it('takes a zod input and makes the message from it', async () => {
    const { agent, fake } = await localAgent([call('plan_trip', { city: 'Oslo', days: 2 }), 'Day 1: museums. Day 2: fjord.', 'Here is the plan.']);
    const planner = await agent.newChat({ system: 'You plan trips.' });
    const planTool = planner.asTool({
      name: 'plan_trip',
      description: 'Plan a trip',
      input: z.object({ city: z.string(), days: z.number().int() }),
      message: ({ city, days }) => `Plan ${days} days in ${city}.`,
    });
    const main = await agent.newChat({ tools: [planTool] });
    await main.send('Trip?');
    expect(systemOf(fake.requests[0]!)).toContain('"city"');
    expect(fake.requests[1]!.last).toBe('Plan 2 days in Oslo.');
  });

  it('declares a task string by default, and a call without one is sent back to the model', async () => {
    const { agent, fake } = await localAgent([call('research', { topic: 'wrens' }), call('research', { task: 'wrens' }), 'Small birds.', 'Done.']);
    const researcher = await agent.newChat();
    const research = researcher.asTool({ name: 'research', description: 'Research' });
    expect(research.parameters).toEqual({ type: 'object', properties: { task: { type: 'string', minLength: 1, description: expect.any(String) } }, required: ['task'], additionalProperties: false });
    const main = await agent.newChat({ tools: [research], grammar: false });
    expect((await main.send('Go')).text).toBe('Done.');
    expect(fake.requests[1]!.last).toContain('"error"');
    expect(fake.requests[2]!.last).toBe('wrens');
  }, 10_000);

  it('returns structured output when given an output schema: the inner chat answers in JSON that fits it', async () => {
    const { agent, fake } = await localAgent([call('classify', { task: 'A wren' }), '{"kind":"bird","legs":2}', 'It is a bird.']);
    const classifier = await agent.newChat({ system: 'Classify animals.' });
    const main = await agent.newChat({ tools: [classifier.asTool({ name: 'classify', description: 'Classify', output: z.object({ kind: z.string(), legs: z.number() }) })] });
    const reply = await main.send('What is a wren?');
    expect(reply.text).toBe('It is a bird.');
    expect(JSON.stringify(fake.requests[1]!.responseFormat)).toContain('"json_schema"');
    expect(fake.requests[2]!.last).toBe(response('{"kind":"bird","legs":2}'));
  });

  it('with an output schema and tools, the inner chat runs its tools first, then answers in JSON', async () => {
    const { agent, fake } = await localAgent([call('classify', { task: 'A wren' }), call('lookup', { word: 'wren' }), 'It is a small bird.', '{"kind":"bird"}', 'A bird.']);
    const classifier = await agent.newChat({ tools: [lookup] });
    const main = await agent.newChat({ tools: [classifier.asTool({ name: 'classify', description: 'Classify', output: z.object({ kind: z.string() }) })] });
    await main.send('Wren?');
    expect(fake.requests[2]!.last).toBe(response('"wren: a small bird"'));
    expect(JSON.stringify(fake.requests[3]!.responseFormat)).toContain('"json_schema"');
    expect(fake.requests[4]!.last).toBe(response('{"kind":"bird"}'));
  });

  it('an inner run that ends with calls nobody can answer fails with ChatToolError (pending); the calls are cancelled', async () => {
    const ask = rawTool({ name: 'ask_user', description: 'Ask the user', parameters: { type: 'object', properties: { q: { type: 'string' } } } });
    const { agent } = await localAgent([call('research', { task: 'Wrens?' }), call('ask_user', { q: 'Which wren?' }), 'Gave up.']);
    const researcher = await agent.newChat({ tools: [ask] });
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research' })] });
    const error = await main.send('Go').catch((e: unknown) => e);
    const cause = (error as Error).cause;
    expect(isChatToolError(cause)).toBe(true);
    expect(cause).toMatchObject({ failure: 'pending', chatId: researcher.id, calls: [expect.objectContaining({ name: 'ask_user' })] });
    expect(researcher.pendingToolCalls).toEqual([]);
    const results = researcher.messages.at(-1);
    expect(results?.role === 'tool' && results.results[0]!.status).toBe('cancelled');
  });

  it('refuses bad options when the tool is made', async () => {
    const { agent } = await localAgent([]);
    const chat = await agent.newChat();
    const made = (o: object) => {
      try {
        chat.asTool(o as never);
        return undefined;
      } catch (e) {
        return e;
      }
    };
    expect(isInvalidOptionsError(made({ name: 'bad name', description: '' }))).toBe(true);
    expect(isInvalidOptionsError(made({ name: 'ok', description: '', input: z.object({ a: z.string() }) }))).toBe(true);
    expect(isInvalidOptionsError(made({ name: 'ok', description: '', onError: 'ignore' }))).toBe(true);
    expect(made({ name: 'ok', description: '' })).toBeUndefined();
  });

  it('is a hop of the outer run even when the inner one needs many steps, and the inner run keeps its stats', async () => {
    const { agent } = await localAgent([call('research', { task: 'Wrens?' }), call('lookup', { word: 'a' }), call('lookup', { word: 'b' }), 'Found.', 'Done.']);
    const researcher = await agent.newChat({ tools: [lookup] });
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research' })] });
    const steps: number[] = [];
    main.on('tool-progress', (e) => (e.details as { part: { type: string; step: number } }).part.type === 'step-end' && steps.push((e.details as { part: { step: number } }).part.step));
    const reply = await main.send('Go');
    expect(reply.stats).toMatchObject({ hops: 1, modelCalls: 2 });
    expect(steps).toEqual([0, 1, 2]);
  });
});
