// A chat as a tool of another (chat.asTool), in headless Chromium: the real
// worker (one model for both chats), IndexedDB and Web Locks.
import { expect, test } from './fixtures.js';

test('a chat runs another as a tool on the same model; the sub-chat is stored and linked from the call; a chat waiting on itself fails at once', async ({ page }) => {
  const run = await page.evaluate(async () => {
    const { createAgent, fakeModel, isChatToolError, isToolExecutionError, tool, toolCallText, z } = window.tabagent;
    const fake = fakeModel([
      toolCallText('research', { task: 'What is a wren?' }),
      toolCallText('lookup', { word: 'wren' }),
      'A wren is a small bird.',
      'Wrens are small birds.',
      toolCallText('myself', { task: 'Again' }),
    ]);
    const agent = await createAgent({ model: fake });
    const lookup = tool({ name: 'lookup', description: 'Look a word up', input: z.object({ word: z.string() }), run: ({ word }) => `${word}: a small bird` });
    const researcher = await agent.newChat({ system: 'You look things up.', tools: [lookup] });
    const main = await agent.newChat({ tools: [researcher.asTool({ name: 'research', description: 'Research a question' })] });
    const progress: string[] = [];
    main.on('tool-progress', (e) => {
      const { chatId, part } = e.details as { chatId: string; part: { type: string; text?: string } };
      const entry = `${chatId === researcher.id ? 'researcher' : chatId} ${part.type}`;
      // Text and call-input deltas, merged: how many there are depends on the page's pace.
      if (part.type === 'tool-input-delta' && progress.at(-1) === entry) return;
      if (part.type === 'text' && progress.at(-1)?.startsWith(entry)) progress[progress.length - 1] += part.text ?? '';
      else progress.push(part.type === 'text' ? `${entry} ${part.text}` : entry);
    });
    const reply = await main.send('Tell me about wrens');

    // A chat used as its own tool: its run holds its Web Lock, so sending into it would wait forever.
    const loop = await agent.newChat();
    await loop.setTools([loop.asTool({ name: 'myself', description: 'Me' })]);
    const error = await Promise.race([loop.send('Go').catch((e: unknown) => e), new Promise((r) => setTimeout(() => r('still waiting'), 5000))]);
    const cause = (error as Error).cause;
    return {
      text: reply.text,
      hops: reply.stats.hops,
      link: reply.steps[0]!.toolResults[0]!.chatId,
      researcherId: researcher.id,
      mainId: main.id,
      progress: progress.join('|'),
      innerPrompt: fake.requests[2]!.messages.map((m) => m.content),
      outerReads: fake.requests[3]!.last,
      loop: isToolExecutionError(error) && isChatToolError(cause) ? { failure: cause.failure, chain: cause.chain, chatId: cause.chatId, loopId: loop.id } : String(error),
    };
  });
  expect(run.text).toBe('Wrens are small birds.');
  expect(run.hops).toBe(1);
  expect(run.link).toBe(run.researcherId);
  // The researcher's parts, as they happened.
  expect(run.progress).toBe('researcher tool-input-start|researcher tool-input-delta|researcher tool-input-end|researcher tool-call|researcher tool-result|researcher step-end|researcher text A wren is a small bird.|researcher step-end');
  expect(run.innerPrompt[0]).toContain('You look things up.');
  expect(run.innerPrompt.slice(1)).toEqual(['What is a wren?', '<tool_call>\n{"name": "lookup", "arguments": {"word":"wren"}}\n</tool_call>', '<tool_response>\n"wren: a small bird"\n</tool_response>']);
  expect(run.outerReads).toBe('<tool_response>\n"A wren is a small bird."\n</tool_response>');
  const loopId = typeof run.loop === 'object' ? run.loop.loopId : 'none';
  expect(run.loop).toEqual({ failure: 'cycle', chain: [loopId], chatId: loopId, loopId });

  // After a reload: the call in the stored chat still names the sub-chat, which opens with what it did.
  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready');
  const stored = await page.evaluate(async ({ mainId, researcherId }) => {
    const { createAgent, fakeModel, tool, z } = window.tabagent;
    const agent = await createAgent({ model: fakeModel([]) });
    const lookup = tool({ name: 'lookup', description: 'Look a word up', input: z.object({ word: z.string() }), run: ({ word }) => word });
    const main = await agent.openChat(mainId, { allowMissingTools: true });
    const results = main.messages.find((m) => m.role === 'tool');
    const link = results?.role === 'tool' ? results.results[0]!.chatId : undefined;
    const researcher = await agent.openChat(link ?? researcherId, { tools: [lookup] });
    return { link, roles: researcher.messages.map((m) => m.role), first: researcher.messages[0]!.role === 'user' ? researcher.messages[0]!.content : '' };
  }, run);
  expect(stored.link).toBe(run.researcherId);
  expect(stored.roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(stored.first).toBe('What is a wren?');
});

test('two chats that are each other’s tool, sent at the same moment, on Web Locks: the call that closes the cycle fails at once, the other run goes through', async ({ page }) => {
  const run = await page.evaluate(async () => {
    const { createAgent, fakeModel, toolCallText } = window.tabagent;
    const replies: Record<string, string> = { 'Go A': toolCallText('ask_b', { task: 'From A' }), 'Go B': toolCallText('ask_a', { task: 'From B' }), 'From A': 'B answers A.', 'From B': 'A answers B.' };
    const agent = await createAgent({ model: fakeModel((r) => replies[r.last] ?? 'Done.') });
    const a = await agent.newChat();
    const b = await agent.newChat();
    await a.setTools([b.asTool({ name: 'ask_b', description: 'B', onError: 'inform' })]);
    await b.setTools([a.asTool({ name: 'ask_a', description: 'A', onError: 'inform' })]);
    const both = Promise.all([a.send('Go A'), b.send('Go B')]);
    const replied = await Promise.race([both, new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
    if (!replied) return 'deadlock: both runs still wait after 10 s';
    return replied.map((r) => ({ text: r.text, status: r.steps[0]!.toolResults[0]!.status, read: r.steps[0]!.toolResults[0]!.content }));
  });
  expect(typeof run).not.toBe('string');
  const results = run as Array<{ text: string; status: string; read: string }>;
  expect(results.map((r) => r.text)).toEqual(['Done.', 'Done.']);
  expect(results.map((r) => r.status).sort()).toEqual(['error', 'ok']);
  expect(results.find((r) => r.status === 'error')!.read).toMatch(/^\{"error":"Chat [\w-]+ is waiting on \\"ask_[ab]\\" itself"\}$/);
});
