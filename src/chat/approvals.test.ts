// Approvals that wait for a person: stored with the chat, answered with
// chat.approve / chat.deny, also from a reopened chat.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { isPendingToolCallsError, isUnknownToolCallError } from '../errors/index.js';
import { MemoryChatStore } from '../store/memory-chat-store.js';
import { toolCallsText as calls } from '../testing/calls.js';
import { localAgent, localChat } from '../test-support/local-chat.js';
import { tool } from '../tools/define-tool.js';
import type { StreamPart } from '../run/chat-stream.js';
import type { ChatMessage } from '../shared/chat.js';

const tools = () => {
  const removed: string[] = [];
  const remove = tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), destructive: true, needsApproval: true, run: ({ path }) => (removed.push(path), `deleted ${path}`) });
  const list = tool({ name: 'list_files', description: 'List files', input: z.object({}), readOnly: true, run: () => ['a.txt', 'b.txt'] });
  return { removed, remove, list };
};

const turn = calls([
  { name: 'list_files', arguments: {} },
  { name: 'delete_file', arguments: { path: 'a.txt' } },
]);

const lastResults = (messages: readonly ChatMessage[]) => messages.flatMap((m) => (m.role === 'tool' ? [m.results] : [])).at(-1)!;

describe('a call that needs approval, with no approve callback', () => {
  it('ends the run with the request pending; the other calls ran; approve runs it and the run goes on', async () => {
    const { removed, remove, list } = tools();
    const { chat, fake } = await localChat([turn, 'Deleted a.txt.'], { tools: [list, remove] });
    const asked = vi.fn();
    chat.on('approval-request', asked);
    const reply = await chat.send('Clean up');
    expect(asked).toHaveBeenCalledWith({ callId: reply.approvals![0]!.id, toolName: 'delete_file', input: { path: 'a.txt' } });
    expect(reply.toolCalls).toEqual([]);
    expect(reply.approvals).toMatchObject([{ name: 'delete_file', arguments: { path: 'a.txt' }, awaitingApproval: true }]);
    expect(chat.pendingToolCalls).toMatchObject([{ name: 'delete_file', awaitingApproval: true }]);
    expect(removed).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    expect(isPendingToolCallsError(await chat.send('hello?').catch((e) => e))).toBe(true);

    const after = await chat.approve(reply.approvals![0]!.id);
    expect(removed).toEqual(['a.txt']);
    expect(after.text).toBe('Deleted a.txt.');
    // Both results reach the model in one message, in call order.
    expect(fake.requests[1]!.last).toBe('<tool_response>\n["a.txt","b.txt"]\n</tool_response>\n<tool_response>\n"deleted a.txt"\n</tool_response>');
    expect(lastResults(chat.messages).map((r) => [r.name, r.status])).toEqual([
      ['list_files', 'ok'],
      ['delete_file', 'ok'],
    ]);
  });

  it('deny: it never runs, and the model reads the refusal with its reason', async () => {
    const { removed, remove, list } = tools();
    const { chat, fake } = await localChat([turn, 'I left it.'], { tools: [list, remove] });
    const reply = await chat.send('Clean up');
    const after = await chat.deny(reply.approvals![0]!.id, 'keep my files');
    expect(removed).toEqual([]);
    expect(after.text).toBe('I left it.');
    expect(fake.requests[1]!.last).toContain('{"denied":true,"reason":"keep my files"}');
    expect(lastResults(chat.messages)[1]).toMatchObject({ status: 'denied', isError: true, attempts: 0 });
  });

  it('the request is stored: a reopened chat (after a reload, or in another tab) can answer it', async () => {
    const store = new MemoryChatStore();
    const first = tools();
    const { agent } = await localAgent([turn, 'Done.'], store);
    const chat = await agent.newChat({ tools: [first.list, first.remove] });
    const { approvals } = await chat.send('Clean up');

    const second = tools();
    const reopened = await agent.openChat(chat.id, { tools: [second.list, second.remove] });
    expect(reopened.pendingToolCalls).toMatchObject([{ id: approvals![0]!.id, awaitingApproval: true }]);
    expect((await reopened.approve(approvals![0]!.id)).text).toBe('Done.');
    expect([first.removed, second.removed]).toEqual([[], ['a.txt']]);
    // The first copy learns it was answered, and cannot run it again.
    expect(isUnknownToolCallError(await chat.approve(approvals![0]!.id).catch((e) => e))).toBe(true);
    expect(first.removed).toEqual([]);
  });

  it('only a call awaiting approval can be approved or denied', async () => {
    const { remove, list } = tools();
    const { chat } = await localChat([turn], { tools: [list, remove] });
    const reply = await chat.send('Clean up', { returnToolRequests: true });
    const error = await chat.approve(reply.toolCalls[1]!.id).catch((e) => e);
    expect(isUnknownToolCallError(error) && error.pendingCallIds).toEqual([]);
    expect(isUnknownToolCallError(await chat.deny('call_nope').catch((e) => e))).toBe(true);
  });

  it('streams an approval-request part, then ends with the request in the final reply', async () => {
    const { remove, list } = tools();
    const { chat } = await localChat([turn], { tools: [list, remove] });
    const parts: StreamPart[] = [];
    for await (const part of chat.sendStream('Clean up')) parts.push(part);
    // The calls as they were written (sendStream's own tests) come before them.
    expect(parts.map((p) => p.type).filter((t) => t !== 'text' && !t.startsWith('tool-input-'))).toEqual(['tool-call', 'tool-call', 'tool-result', 'approval-request', 'step-end', 'final']);
    expect((parts.at(-1) as Extract<StreamPart, { type: 'final' }>).reply.approvals).toHaveLength(1);
  });

  it('runTool on such a call leaves it waiting too', async () => {
    const { removed, remove, list } = tools();
    const { chat } = await localChat([turn], { tools: [list, remove] });
    const reply = await chat.send('Clean up', { returnToolRequests: true });
    const after = await chat.runTool(reply.toolCalls[1]!);
    expect(removed).toEqual([]);
    expect(after.approvals).toMatchObject([{ name: 'delete_file', awaitingApproval: true }]);
    expect(after.toolCalls.map((c) => c.name)).toEqual(['list_files']);
  });
});
