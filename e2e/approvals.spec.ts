// Approvals that wait for a person: stored with the chat, answered after a
// reload or from another tab, or denied.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

/** A chat whose delete_file call waits for approval; returns its id and the call's. */
async function askToDelete(page: Page): Promise<{ chatId: string; callId: string; requests: number }> {
  return page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([toolCallText('delete_file', { path: 'notes.txt' })]) });
    const remove = tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: () => 'deleted' });
    const chat = await agent.newChat({ tools: [remove] });
    let requests = 0;
    chat.on('approval-request', () => requests++);
    const reply = await chat.send('Delete notes.txt');
    (window as unknown as { held: typeof chat }).held = chat;
    return { chatId: chat.id, callId: reply.approvals![0]!.id, requests };
  });
}

/** Open the chat in `page` and approve or deny the call. */
function decide(page: Page, ids: { chatId: string; callId: string }, approve: boolean) {
  return page.evaluate(
    async ({ chatId, callId, approve }) => {
      const { createAgent, fakeModel, tool, z } = window.tabagent;
      const fake = fakeModel([approve ? 'Deleted notes.txt.' : 'I kept it.']);
      const agent = await createAgent({ model: fake });
      const ran: string[] = [];
      const remove = tool({ name: 'delete_file', description: 'Delete a file', input: z.object({ path: z.string() }), needsApproval: true, run: ({ path }) => (ran.push(path), 'deleted') });
      const chat = await agent.openChat(chatId, { tools: [remove] });
      const waiting = chat.pendingToolCalls.map((c) => ({ id: c.id, awaitingApproval: c.awaitingApproval }));
      const reply = approve ? await chat.approve(callId) : await chat.deny(callId, 'keep it');
      return { waiting, ran, text: reply.text, read: fake.requests[0]!.last };
    },
    { ...ids, approve },
  );
}

test('an approval answered after a reload runs the call once, and the run goes on', async ({ page }) => {
  const ids = await askToDelete(page);
  expect(ids.requests).toBe(1);
  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready');
  const after = await decide(page, ids, true);
  expect(after.waiting).toEqual([{ id: ids.callId, awaitingApproval: true }]);
  expect(after.ran).toEqual(['notes.txt']);
  expect(after.text).toBe('Deleted notes.txt.');
  expect(after.read).toBe('<tool_response>\n"deleted"\n</tool_response>');
});

test('an approval answered from a second tab; the first tab sees it answered', async ({ page }) => {
  const ids = await askToDelete(page);
  const other = await page.context().newPage();
  await other.goto('/');
  await expect(other.locator('#status')).toHaveText('ready');
  const after = await decide(other, ids, true);
  expect(after.ran).toEqual(['notes.txt']);
  // The first tab's own copy of the chat catches up: nothing left to approve there.
  await expect
    .poll(() => page.evaluate(() => {
      const chat = (window as unknown as { held: import('../src/index.js').Chat }).held;
      return { pending: chat.pendingToolCalls.length, last: chat.messages.at(-1)?.role === 'assistant' ? (chat.messages.at(-1) as { text: string }).text : null };
    }))
    .toEqual({ pending: 0, last: 'Deleted notes.txt.' });
  await other.close();
});

test('a denied approval never runs, and the model reads the refusal', async ({ page }) => {
  const ids = await askToDelete(page);
  const after = await decide(page, ids, false);
  expect(after.ran).toEqual([]);
  expect(after.text).toBe('I kept it.');
  expect(after.read).toBe('<tool_response>\n{"denied":true,"reason":"keep it"}\n</tool_response>');
});
