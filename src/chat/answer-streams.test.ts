// approve, deny and regenerate tell the run they let go on as stream parts,
// to an internal `onPart` (what tabagent/ai-sdk's chat transport streams).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallsText as calls } from '../testing/calls.js';
import { localChat } from '../test-support/local-chat.js';
import { tool } from '../tools/define-tool.js';
import type { StreamPart } from '../run/chat-stream.js';

const remove = () => {
  const removed: string[] = [];
  return { removed, tool: tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => (removed.push(path), `deleted ${path}`) }) };
};

/** A listener that keeps the parts, a step's text deltas joined (how many deltas a text comes in is the stream's business). */
function collect() {
  const parts: StreamPart[] = [];
  const onPart = (part: StreamPart) => {
    const last = parts.at(-1);
    if (part.type === 'text' && last?.type === 'text' && last.step === part.step) last.text += part.text;
    else parts.push({ ...part });
  };
  return { parts, onPart, brief: () => parts.map((p) => (p.type === 'text' ? `text:${p.step}:${p.text}` : `${p.type}:${'step' in p ? p.step : ''}`)) };
}

describe('answers told as stream parts', () => {
  it('approve: the run that goes on after the call ran', async () => {
    const { removed, tool: del } = remove();
    const { chat } = await localChat([calls([{ name: 'delete_file', arguments: { path: 'a.txt' } }]), 'Deleted.'], { tools: [del] });
    const first = await chat.send('Clean up');
    const { onPart, brief } = collect();
    await chat.approve(first.approvals![0]!.id, {}, onPart);
    expect(removed).toEqual(['a.txt']);
    expect(brief()).toEqual(['text:1:Deleted.', 'step-end:1']);
  });

  it('deny: the run that goes on; the model reads why', async () => {
    const { removed, tool: del } = remove();
    const { chat, fake } = await localChat([calls([{ name: 'delete_file', arguments: { path: 'a.txt' } }]), 'Kept it.'], { tools: [del] });
    const first = await chat.send('Clean up');
    const { onPart, brief } = collect();
    await chat.deny(first.approvals![0]!.id, 'keep it', {}, onPart);
    expect(removed).toEqual([]);
    expect(brief()).toEqual(['text:1:Kept it.', 'step-end:1']);
    expect(fake.requests[1]!.last).toContain('keep it');
  });

  it('regenerate: the new answer', async () => {
    const { chat } = await localChat(['First.', 'Second.']);
    await chat.send('Hi');
    const { onPart, brief } = collect();
    await chat.regenerate({}, onPart);
    expect(brief()).toEqual(['text:0:Second.', 'step-end:0']);
    expect(chat.messages.map((m) => (m.role === 'assistant' ? m.text : m.role))).toEqual(['user', 'Second.']);
  });
});
