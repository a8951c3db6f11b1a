// A call whose arguments hold `__proto__`, `constructor` or `prototype` as a
// key, at any depth, is refused as invalid arguments where the turn is read:
// no handler runs, the model is told where, and nothing the page sees (the
// reply, events, stream parts, approvals, the stored chat, its export) keeps
// the key.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { localAgent, localChat } from '../test-support/local-chat.js';
import { rawTool, tool } from '../tools/define-tool.js';
import type { StreamPart } from './chat-stream.js';
import type { ChatEvents } from '../chat/chat-events.js';

const configure = (options: { needsApproval?: boolean; onError?: 'inform' | 'return' } = {}) => {
  const run = vi.fn(() => 'configured');
  // z.unknown(): the schema names no fields, so nothing in it says where a key may be.
  return { ...tool({ name: 'configure', description: 'Configure', input: z.object({ opts: z.unknown() }), ...options, run }), spy: run };
};
const search = rawTool({ name: 'search_web', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });

const hostile = (key = '__proto__') => `<tool_call>\n{"name": "configure", "arguments": {"opts": {"mode": "fast", "${key}": {"polluted": true}}}}\n</tool_call>`;
const searchCall = '<tool_call>\n{"name": "search_web", "arguments": {"q": "x"}}\n</tool_call>';

/** An own reserved key anywhere in what the page gets (JSON.stringify writes own keys, `__proto__` too). */
const leaks = (value: unknown) => /"(__proto__|constructor|prototype)"\s*:/.test(JSON.stringify(value));

const refused = (path: string) => ({ name: 'configure', arguments: { opts: { mode: 'fast' } }, errorCode: 'invalid-arguments', error: expect.stringContaining(path) });

describe('reserved keys in a managed call', () => {
  it.each(['inform', 'return'] as const)("under '%s': the handler never runs, the model is told where, and the loop goes on", async (onError) => {
    const tool_ = configure({ onError });
    const { chat, fake, commits } = await localChat([hostile(), 'Fixed it.'], { tools: [tool_] });
    const ended: Array<ChatEvents['model-end']> = [];
    chat.on('model-end', (e) => ended.push(e));
    const parts: StreamPart[] = [];
    for await (const part of chat.sendStream('Set it up')) parts.push(part);
    const final = parts.at(-1)!;
    if (final.type !== 'final') throw new Error('no final part');
    const reply = final.reply;
    expect(tool_.spy).not.toHaveBeenCalled();
    expect(reply.text).toBe('Fixed it.');
    expect(fake.requests[1]!.last).toMatch(/Invalid arguments for tool \\"configure\\": opts\.__proto__: reserved key/);
    expect(reply.steps[0]!.toolCalls).toEqual([expect.objectContaining(refused('opts.__proto__'))]);
    expect(reply.steps[0]!.toolResults).toMatchObject([{ status: 'invalid', isError: true }]);
    expect(leaks(reply)).toBe(false);
    expect(leaks(ended)).toBe(false);
    expect(leaks(parts.filter((p) => p.type === 'tool-call'))).toBe(false);
    expect(leaks(chat.messages)).toBe(false);
    expect(leaks(commits)).toBe(false);
  });

  it('in a mixed turn: handed back refused and without the key; runTool tells the model, never the handler', async () => {
    const tool_ = configure();
    const { chat, fake } = await localChat([`${searchCall}\n${hostile('constructor')}`, 'Both answered.'], { tools: [tool_, search] });
    const reply = await chat.send('go');
    expect(reply.toolCalls).toEqual([expect.objectContaining({ name: 'search_web', arguments: { q: 'x' } }), expect.objectContaining(refused('opts.constructor'))]);
    expect(reply.toolCalls[1]!.errorCode).toBe('invalid-arguments');
    expect(leaks(reply)).toBe(false);
    await chat.runTool(reply.toolCalls[1]!);
    expect(tool_.spy).not.toHaveBeenCalled();
    const done = await chat.sendToolResult(reply.toolCalls[0]!.id, 'hits');
    expect(done.text).toBe('Both answered.');
    expect(fake.requests[1]!.last).toMatch(/opts\.constructor: reserved key/);
  });

  it('with returnToolRequests: handed back refused and without the key', async () => {
    const { chat } = await localChat([hostile('prototype')], { tools: [configure()] });
    const reply = await chat.send('go', { returnToolRequests: true });
    expect(reply.toolCalls).toEqual([expect.objectContaining(refused('opts.prototype'))]);
    expect(leaks(reply)).toBe(false);
    expect(leaks(chat.pendingToolCalls)).toBe(false);
  });

  it('that needs approval: nobody is asked (it was refused first), and the model is told', async () => {
    const tool_ = configure({ needsApproval: true });
    const { chat, fake } = await localChat([hostile(), 'ok'], { tools: [tool_] });
    const asked = vi.fn();
    chat.on('approval-request', asked);
    const reply = await chat.send('go');
    expect(asked).not.toHaveBeenCalled();
    expect(reply.approvals).toBeUndefined();
    expect(tool_.spy).not.toHaveBeenCalled();
    expect(fake.requests[1]!.last).toMatch(/opts\.__proto__: reserved key/);
  });

  it('is exported without the key, and the export imports again', async () => {
    const { agent } = await localAgent([hostile(), 'ok']);
    const chat = await agent.newChat({ tools: [configure()] });
    await chat.send('go');
    const file = await agent.exportChat(chat.id);
    expect(leaks(file)).toBe(false);
    expect(file.messages[1]).toMatchObject({ toolCalls: [refused('opts.__proto__')] });
    const imported = await agent.importChat(JSON.stringify(file));
    expect(imported.messageCount).toBe(4);
  });
});

describe('reserved keys in a raw call', () => {
  it('comes back refused (errorCode invalid-arguments) and without the key, in a chat with no managed tool', async () => {
    const raw = '<tool_call>\n{"name": "search_web", "arguments": {"q": "x", "__proto__": {"polluted": 1}, "opts": {"constructor": 1, "keep": 2}}}\n</tool_call>';
    const { chat, fake } = await localChat([raw], { tools: [search], grammar: false });
    const [call] = (await chat.send('Search')).toolCalls;
    expect(call).toMatchObject({ name: 'search_web', arguments: { q: 'x', opts: { keep: 2 } }, errorCode: 'invalid-arguments' });
    expect(call!.error).toMatch(/__proto__: reserved key.*opts\.constructor: reserved key/);
    expect(Object.hasOwn(call!.arguments, '__proto__')).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('goes back to the model, like any call it must write again, in a chat with managed tools', async () => {
    const raw = '<tool_call>\n{"name": "search_web", "arguments": {"q": "x", "opts": {"__proto__": 1}}}\n</tool_call>';
    const { chat, fake } = await localChat([raw, 'Sorry.'], { tools: [search, configure()], grammar: false });
    const reply = await chat.send('Search');
    expect(reply.text).toBe('Sorry.');
    expect(fake.requests[1]!.last).toMatch(/opts\.__proto__: reserved key/);
  });
});
