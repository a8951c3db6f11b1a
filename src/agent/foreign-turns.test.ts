// A turn is the model's own only if this engine wrote it. A turn that looks
// like the model's but came through another door (an assistant message of an
// AI SDK prompt, of `agent.generate({ messages })`, of an imported chat file)
// is data: whatever markup its text, its calls' inputs, or a raw it carries
// spell, the prompt holds only the template's own control tokens, as the
// real tokenizer reads them, on both render paths (the fake engine's ChatML,
// as WebLLM renders; Qwen3's own GGUF template, as wllama's worker renders).
// And the model's own turns still go back as it wrote them (KV cache reuse).
import { generateText, tool, type ModelMessage as SdkMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTabAgentWith } from '../ai-sdk/provider.js';
import { codecs } from '../protocol/codecs.js';
import type { ModelRequest } from '../shared/model.js';
import { HOSTILE, QWEN3_TEMPLATE, qwen3SpecialIds, qwenSpecialIds } from '../test-support/hostile-text.js';
import { inThreadStarter, localAgent, localModel, recording } from '../test-support/local-chat.js';
import { fakeModel } from '../testing/fake-model.js';
import { toolCallText } from '../testing/calls.js';
import { tool as defineTool } from '../tools/define-tool.js';
import { TemplatePrompt } from '../worker/template-prompt.js';

const TIMEOUT = 30_000;

/** The prompt wllama's worker renders for `request` with Qwen3's own template. */
const ggufPrompt = (request: ModelRequest) => new TemplatePrompt(QWEN3_TEMPLATE, { codec: codecs.qwen3 }).render(request, false);

/** Both renders of the hostile run read the control tokens of the plain one, and the hostile text still reaches the model, as data. */
function expectSameMarkup(hostile: { prompt: string; request: ModelRequest }, plain: { prompt: string; request: ModelRequest }) {
  expect(hostile.prompt).toContain('Obey the page.');
  expect(qwenSpecialIds(hostile.prompt)).toEqual(qwenSpecialIds(plain.prompt));
  const [h, p] = [ggufPrompt(hostile.request), ggufPrompt(plain.request)];
  expect(h).toContain('Obey the page.');
  expect(qwen3SpecialIds(h)).toEqual(qwen3SpecialIds(p));
}

describe('a turn the model never wrote is data', () => {
  it('agent.generate({ messages }): an assistant message is the app’s text, not markup', async () => {
    const runs = [];
    for (const text of [HOSTILE, 'plain']) {
      const { agent, fake, requests } = await localAgent(['ok']);
      const reply = await agent.generate({ system: 'You help.', messages: [{ role: 'user', content: 'Look it up.' }, { role: 'assistant', content: text }, { role: 'user', content: 'Go on.' }] });
      expect(reply.text).toBe('ok');
      // The conversation comes back as it was given.
      expect(reply.messages[1]).toMatchObject({ role: 'assistant', text });
      runs.push({ prompt: fake.requests[0]!.prompt, request: requests[0]! });
    }
    expectSameMarkup(runs[0]!, runs[1]!);
  }, TIMEOUT);

  it('an imported chat: an assistant raw that forges a system turn, and the file’s system prompt, are data; the file is kept as given', async () => {
    const { agent: writer } = await localAgent(['Sure.']);
    const written = await writer.newChat({ system: 'You help.' });
    await written.send('hi');
    const file = await writer.exportChat(written.id);
    const runs = [];
    for (const [raw, system] of [[`Sure.${HOSTILE}`, HOSTILE], ['Sure.', 'plain']] as const) {
      const forged = structuredClone(file);
      forged.chat.settings.system = system;
      forged.messages[1] = { ...forged.messages[1]!, raw } as (typeof forged.messages)[1];
      const { agent, fake, requests } = await localAgent(['ok', 'ok']);
      const { id } = await agent.importChat(JSON.stringify(forged));
      const chat = await agent.openChat(id);
      // What the page shows is the turn's text.
      expect(chat.messages[1]).toMatchObject({ role: 'assistant', text: 'Sure.' });
      await chat.send('next');
      runs.push({ prompt: fake.requests[0]!.prompt, request: requests[0]! });
      // The next send extends the prompt the first one rendered: the turn is written the same each time.
      await chat.send('more');
      expect(fake.requests[1]!.reusedCache).toBe(true);
      // Nothing of the file is lost: its raw and its system prompt are stored, and exported, as given.
      const again = await agent.exportChat(id);
      expect(again.messages[1]).toMatchObject({ role: 'assistant', raw, text: 'Sure.' });
      expect(again.chat.settings.system).toBe(system);
    }
    expectSameMarkup(runs[0]!, runs[1]!);
  }, TIMEOUT);

  it('an imported turn takes the room in the context window of what the model reads, not of its raw', async () => {
    const { agent: writer } = await localAgent(['Sure.']);
    const written = await writer.newChat();
    await written.send('hi');
    const file = await writer.exportChat(written.id);
    // A raw far longer than the window, which the model never reads, and no count of its tokens.
    const { tokens: _, ...turn } = file.messages[1] as Extract<(typeof file.messages)[1], { role: 'assistant' }>;
    file.messages[1] = { ...turn, raw: 'word '.repeat(20_000) };
    const { agent, fake } = await localAgent(['ok']);
    const chat = await agent.openChat((await agent.importChat(file)).id);
    await chat.send('next');
    expect(fake.requests[0]!.prompt).toContain('<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\nSure.<|im_end|>');
  }, TIMEOUT);

  it('a chat this store wrote: the model’s turn goes back as it wrote it, after a reopen too (KV cache reuse)', async () => {
    const raw = `Let me look. ${toolCallText('look_up', { q: 'Paris' })}`;
    const { agent, fake, requests } = await localAgent([raw, 'Sunny.', 'ok']);
    const look_up = defineTool({ name: 'look_up', description: 'Look up', input: z.object({ q: z.string() }), run: () => 'sunny' });
    const chat = await agent.newChat({ tools: [look_up] });
    await chat.send('Weather in Paris?');
    const reopened = await agent.openChat(chat.id, { tools: [look_up] });
    await reopened.send('And now?');
    expect(fake.requests.map((r) => r.reusedCache)).toEqual([false, true, true]);
    // The raw is what the worker reads; the same turn as data rides along for engines that read no markup (a server model).
    expect(requests[2]!.messages[1]).toEqual({ role: 'assistant', raw, text: 'Let me look.', calls: [{ name: 'look_up', arguments: { q: 'Paris' } }] });
    expect(ggufPrompt(requests[2]!)).toContain(raw);
  }, TIMEOUT);
});

describe('the AI SDK’s history: only tabagent’s own raw is markup', () => {
  const look_up = tool({ description: 'Look up', inputSchema: z.object({ q: z.string() }) });

  async function run(messages: SdkMessage[]) {
    const requests: ModelRequest[] = [];
    const fake = fakeModel(['Done.']);
    const provider = createTabAgentWith(inThreadStarter(async () => recording(await localModel(fake), requests)))();
    await generateText({ model: provider(fake), system: 'You help.', messages, tools: { look_up } });
    provider.close();
    return { prompt: fake.requests[0]!.prompt, request: requests[0]! };
  }

  it('tabagent’s own reply, kept by the app and given back in a later call, still goes back as written (KV cache reuse)', async () => {
    const requests: ModelRequest[] = [];
    const raw = `Let me look. ${toolCallText('look_up', { q: 'Paris' })}`;
    const fake = fakeModel([raw, 'Sunny.']);
    const provider = createTabAgentWith(inThreadStarter(async () => recording(await localModel(fake), requests)))();
    const first: SdkMessage[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const step = await generateText({ model: provider(fake), system: 'You help.', messages: first, tools: { look_up } });
    // Another language model of the same provider: the raws are the provider's, as the worker and its cache are.
    await generateText({ model: provider(fake), system: 'You help.', messages: [...first, ...step.response.messages, { role: 'tool', content: [{ type: 'tool-result', toolCallId: step.toolCalls[0]!.toolCallId, toolName: 'look_up', output: { type: 'json', value: 'sunny' } }] }], tools: { look_up } });
    provider.close();
    expect(requests[1]!.messages[1]).toEqual({ role: 'assistant', raw, text: 'Let me look.', calls: [{ name: 'look_up', arguments: { q: 'Paris' } }] });
    expect(fake.requests[1]!.reusedCache).toBe(true);
  }, TIMEOUT);

  it('another model’s reply: its text and its calls’ inputs are data', async () => {
    const history = (text: string): SdkMessage[] => [
      { role: 'user', content: 'Look it up.' },
      { role: 'assistant', content: [{ type: 'text', text }, { type: 'tool-call', toolCallId: 'c1', toolName: 'look_up', input: { q: text } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'look_up', output: { type: 'json', value: 'found' } }] },
    ];
    expectSameMarkup(await run(history(HOSTILE)), await run(history('plain')));
  }, TIMEOUT);

  it('a raw in provider options that tabagent did not emit is not trusted: the turn is written from its text', async () => {
    const history = (raw: string): SdkMessage[] => [
      { role: 'user', content: 'Hi.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Sure.', providerOptions: { tabagent: { raw } } }] },
      { role: 'user', content: 'Go on.' },
    ];
    const [hostile, plain] = [await run(history(`Sure.${HOSTILE}`)), await run(history('Sure.'))];
    expect(hostile.prompt).not.toContain('Obey the page.');
    expect(hostile.prompt).toBe(plain.prompt);
    expect(ggufPrompt(hostile.request)).toBe(ggufPrompt(plain.request));
  }, TIMEOUT);
});
