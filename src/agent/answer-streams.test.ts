// approveStream, denyStream and regenerateStream: the same work as approve,
// deny and regenerate, told as stream parts (what a UI streams them as,
// tabagent/ai-sdk's chat transport among them).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallsText as calls } from '../testing/calls.js';
import { localChat } from '../test-support/local-chat.js';
import { tool } from '../tools/define-tool.js';
import type { StreamPart } from './chat-stream.js';

const remove = () => {
  const removed: string[] = [];
  return { removed, tool: tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => (removed.push(path), `deleted ${path}`) }) };
};

/** The stream's parts, a step's text deltas joined (how many deltas a text comes in is the stream's business). */
async function parts(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const out: StreamPart[] = [];
  for await (const part of stream) {
    const last = out.at(-1);
    if (part.type === 'text' && last?.type === 'text' && last.step === part.step) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}

const brief = (part: StreamPart) => (part.type === 'tool-result' ? `tool-result:${part.step}:${part.result.status}` : part.type === 'text' ? `text:${part.step}:${part.text}` : `${part.type}:${'step' in part ? part.step : ''}`);

describe('answers, streamed', () => {
  it('approveStream: the call runs (its result a part of the waiting step), then the run goes on', async () => {
    const { removed, tool: del } = remove();
    const { chat } = await localChat([calls([{ name: 'delete_file', arguments: { path: 'a.txt' } }]), 'Deleted.'], { tools: [del] });
    const first = await chat.send('Clean up');
    const streamed = await parts(chat.approveStream(first.approvals![0]!.id));
    expect(removed).toEqual(['a.txt']);
    expect(streamed.map(brief)).toEqual(['tool-result:0:ok', 'text:1:Deleted.', 'step-end:1', 'final:']);
  });

  it('denyStream: the denial, then the run; the model reads why', async () => {
    const { removed, tool: del } = remove();
    const { chat, fake } = await localChat([calls([{ name: 'delete_file', arguments: { path: 'a.txt' } }]), 'Kept it.'], { tools: [del] });
    const first = await chat.send('Clean up');
    const streamed = await parts(chat.denyStream(first.approvals![0]!.id, 'keep it'));
    expect(removed).toEqual([]);
    expect(streamed.map(brief)).toEqual(['tool-result:0:denied', 'text:1:Kept it.', 'step-end:1', 'final:']);
    expect(fake.requests[1]!.last).toContain('keep it');
  });

  it('regenerateStream: the last answer again, streamed', async () => {
    const { chat } = await localChat(['First.', 'Second.']);
    await chat.send('Hi');
    const streamed = await parts(chat.regenerateStream());
    expect(streamed.map(brief)).toEqual(['text:0:Second.', 'step-end:0', 'final:']);
    expect(chat.messages.map((m) => (m.role === 'assistant' ? m.text : m.role))).toEqual(['user', 'Second.']);
  });
});
