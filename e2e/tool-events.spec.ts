// Progress events, approvals and retries, as a page sees them.
import { expect, test } from './fixtures.js';

test('progress events arrive in order, tool by tool', async ({ page }) => {
  const events = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([toolCallText('download', { files: 3 }), 'All downloaded.']) });
    const download = tool({
      name: 'download',
      description: '',
      input: z.object({ files: z.number() }),
      run: async ({ files }, ctx) => {
        for (let i = 1; i <= files; i++) {
          await new Promise((r) => setTimeout(r, 10));
          ctx.update({ done: i, of: files });
        }
        return { files };
      },
    });
    const chat = await agent.newChat({ tools: [download] });
    const log: string[] = [];
    chat.on('model-start', (e) => log.push(`model-start ${e.step}`));
    chat.on('tool-start', (e) => log.push(`tool-start ${e.toolName}`));
    chat.on('tool-progress', (e) => log.push(`progress ${JSON.stringify(e.details)}`));
    chat.on('tool-end', (e) => log.push(`tool-end ${e.content}`));
    chat.on('hop', (e) => log.push(`hop ${e.hops}`));
    await chat.send('download 3 files');
    return log;
  });
  expect(events).toEqual([
    'model-start 0',
    'tool-start download',
    'progress {"done":1,"of":3}',
    'progress {"done":2,"of":3}',
    'progress {"done":3,"of":3}',
    'tool-end {"files":3}',
    'hop 1',
    'model-start 1',
  ]);
});

test('approval: an allowed call runs, a denied one never does and the model reads why', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const fake = fakeModel([`${toolCallText('delete_file', { path: 'notes.txt' })}\n${toolCallText('delete_file', { path: '/etc' })}`, 'Done.']);
    const agent = await createAgent({ model: fake });
    const deleted: string[] = [];
    const remove = tool({
      name: 'delete_file',
      description: 'Delete a file',
      input: z.object({ path: z.string() }),
      destructive: true,
      needsApproval: true,
      run: ({ path }) => (deleted.push(path), 'deleted'),
    });
    const asked: string[] = [];
    const chat = await agent.newChat({
      tools: [remove],
      approve: async (call) => {
        const path = (call.input as { path: string }).path;
        asked.push(path);
        return path.startsWith('/') ? { approved: false, reason: 'system paths are off limits' } : true;
      },
    });
    await chat.send('clean up');
    return { asked, deleted, results: fake.requests[1]!.last };
  });
  expect(result.asked).toEqual(['notes.txt', '/etc']);
  expect(result.deleted).toEqual(['notes.txt']);
  expect(result.results).toBe('<tool_response>\n"deleted"\n</tool_response>\n<tool_response>\n{"denied":true,"reason":"system paths are off limits"}\n</tool_response>');
});

test('retry: a transient failure, then success', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, fakeModel, tool, toolCallText, z } = window.tabagent;
    const fake = fakeModel([toolCallText('fetch_price'), 'Price found.']);
    const agent = await createAgent({ model: fake });
    let tries = 0;
    const fetchPrice = tool({
      name: 'fetch_price',
      description: '',
      input: z.object({}),
      retry: { attempts: 3, backoffMs: (n) => n * 5 },
      run: () => {
        if (++tries < 3) throw new Error('503 Service Unavailable');
        return { price: 42 };
      },
    });
    const chat = await agent.newChat({ tools: [fetchPrice] });
    let attempts = 0;
    chat.on('tool-end', (e) => (attempts = e.attempts));
    const reply = await chat.send('price?');
    return { tries, attempts, text: reply.text, result: fake.requests[1]!.last };
  });
  expect(result).toEqual({ tries: 3, attempts: 3, text: 'Price found.', result: '<tool_response>\n{"price":42}\n</tool_response>' });
});
