// JSON from outside nested thousands deep (a few KB of brackets) is bounded
// (shared/json.ts, MAX_JSON_DEPTH): a model's call is refused as unreadable
// and the model told, a tool's result is a ToolResultError naming the tool
// (FAULTS H2, M4). Each overflowed a recursive walk with a RangeError before.
import 'fake-indexeddb/auto';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isToolResultError } from '../errors/index.js';
import { localChat } from '../test-support/local-chat.js';
import { dispatchedAgent } from '../test-support/server-agent.js';
import { toolCallText as call } from '../testing/calls.js';
import { tool } from '../tools/define-tool.js';

const f = tool({ name: 'f', description: 'f', input: z.object({ x: z.any() }), run: () => 'ok' });
const deepArguments = (depth: number) => `{"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
const NESTS = 'nest deeper than 128 levels';

describe('call arguments nested thousands deep', () => {
  it.each([3_000, 20_000])('from a local model (no grammar), %i levels: the model is told, the run goes on', async (depth) => {
    const { chat, fake } = await localChat([`<tool_call>\n{"name": "f", "arguments": ${deepArguments(depth)}}\n</tool_call>`, 'Sorry.'], { tools: [f], grammar: false });
    expect((await chat.send('go')).text).toBe('Sorry.');
    expect(fake.requests[1]!.last).toContain(NESTS);
  });

  it('from a server model: the same', async () => {
    const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1 } };
    const turns = [
      [{ type: 'tool-call', toolCallId: 'c', toolName: 'f', input: deepArguments(3_000) }, { type: 'finish', finishReason: { unified: 'tool-calls' }, usage }],
      [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Sorry.' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop' }, usage }],
    ];
    let next = 0;
    const prompts: unknown[] = [];
    const model = new MockLanguageModelV4({ doStream: async ({ prompt }) => (prompts.push(prompt), { stream: convertArrayToReadableStream(turns[next++] as never) }) });
    const { agent } = await dispatchedAgent({ model });
    expect((await (await agent.newChat({ tools: [f] })).send('go')).text).toBe('Sorry.');
    expect(JSON.stringify(prompts[1])).toContain(NESTS);
  });
});

describe('a tool result nested thousands deep', () => {
  it("under onError 'return': the send rejects with ToolResultError naming the tool", async () => {
    const deep = tool({ name: 'deep', description: '', input: z.object({}), onError: 'return', run: () => JSON.parse(`${'['.repeat(3_000)}${']'.repeat(3_000)}`) as unknown });
    const { chat } = await localChat([call('deep'), 'ok'], { tools: [deep] });
    const error = await chat.send('go').catch((caught: unknown) => caught);
    expect(isToolResultError(error), String(error)).toBe(true);
    expect(error).toMatchObject({ toolName: 'deep' });
  });
});
