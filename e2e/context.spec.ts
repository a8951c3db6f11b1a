// Long chats through the real worker: the fake model's context window refuses
// a prompt that does not fit, as WebLLM's does; the chat trims and goes on.
import { expect, test } from './fixtures.js';

test('a chat longer than the context window keeps going: older exchanges leave the model’s view, the store keeps them', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const fake = fakeModel((r) => (r.last.startsWith('<tool_response>') ? 'Noted.' : toolCallText('read_page', { page: Number(/page (\d+)/.exec(r.last)?.[1] ?? 0) })), { contextWindow: 1024 });
    const agent = await createAgent({ model: fake });
    const read = tool({ name: 'read_page', description: 'Read a page', input: z.object({ page: z.number() }), run: ({ page }) => ({ page, text: 'lorem ipsum '.repeat(60) }) });
    const chat = await agent.newChat({ tools: [read] });
    const trims: number[] = [];
    chat.on('context-trimmed', (e) => trims.push(e.dropped));
    const answers: string[] = [];
    for (let i = 1; i <= 12; i++) answers.push((await chat.send(`Read page ${i}`)).text);
    const reopened = await agent.openChat(chat.id, { tools: [read] });
    return { answers, trims, stored: reopened.messages.filter((m) => m.role === 'user').length, full: fake.requests.filter((r) => !r.reusedCache).length, requests: fake.requests.length };
  });
  expect(result.answers).toEqual(Array(12).fill('Noted.'));
  expect(result.trims.length).toBeGreaterThan(1);
  expect(result.stored).toBe(12);
  // Between trims, each hop reuses the KV cache.
  expect(result.full).toBe(result.trims.length + 1);
});
