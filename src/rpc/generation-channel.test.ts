// The generation channel between the page and the worker's engine host: one
// message out per request, the model's news back in order, the end carrying
// the response or the error (a real Error of its class).
import { describe, expect, it } from 'vitest';
import { isModelError } from '../errors/index.js';
import type { ModelMessage, ModelRequest } from '../shared/model.js';
import { FAKE_SPEC } from '../model/scripted-model.js';
import { fakeModel } from '../testing/fake-model.js';
import { toolCallText } from '../testing/calls.js';
import { EngineHost } from '../worker/engine-host.js';
import type { ToolDeclaration } from '../shared/tool-protocol.js';
import { GenerationClient, GenerationServer } from './generation-channel.js';
import { KEPT_LISTS, type FakeRequest, type GenerationCall, type GenerationMessage } from './worker-protocol.js';

const echo = { name: 'echo', description: 'Echo', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
const ask: ModelRequest = { messages: [{ role: 'user', content: 'go' }], tools: [echo], toolChoice: 'auto' };

async function connected(script: Parameters<typeof fakeModel>[0], recordRequests = false) {
  const host = new EngineHost();
  const { port1, port2 } = new MessageChannel();
  for (const port of [port1, port2]) (port as unknown as { unref?: () => void }).unref?.();
  host.connect(port2);
  const { respond, record: _, firstTurn, ...spec } = fakeModel(script)[FAKE_SPEC];
  await host.load({ kind: 'fake', ...spec, recordRequests, firstTurn: firstTurn() }, undefined, respond);
  const client = new GenerationClient(port1);
  // Everything the worker sends, as the page receives it.
  const received: GenerationMessage['kind'][] = [];
  port1.addEventListener('message', (event) => received.push((event as MessageEvent<GenerationMessage>).data.kind));
  return { client, received };
}

describe('the generation channel', () => {
  it('a call is told as it is written only to a page that listens: unasked, the worker sends nothing of it before the end', async () => {
    const call = toolCallText('echo', { text: 'hello world' });
    const quiet = await connected([call]);
    const response = await quiet.client.generate(1, ask, {});
    expect(response.calls).toMatchObject([{ name: 'echo', arguments: { text: 'hello world' } }]);
    expect(quiet.received).toEqual(['end']);

    const listening = await connected([call]);
    const told: string[] = [];
    await listening.client.generate(1, ask, { onCallInput: (event) => told.push(event.type) });
    expect(told[0]).toBe('start');
    expect(told.at(-1)).toBe('end');
    expect(listening.received.filter((kind) => kind === 'call-input')).toHaveLength(told.length);
    expect(listening.received.at(-1)).toBe('end');
  });

  it('text streams before the end, and a model that fails ends the generation with its typed error', async () => {
    const { client, received } = await connected([{ text: 'half an answer', fault: 'model-error' }]);
    const shown: string[] = [];
    const error = await client.generate(1, { ...ask, tools: [] }, { onText: (delta) => shown.push(delta) }).catch((e: unknown) => e);
    expect(isModelError(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(shown.join('')).toBe('half an answer');
    expect(received.at(-1)).toBe('failed');
  });
});

/** A client and a server on one channel; the server hands each request to `seen` and answers at once. */
function pair() {
  const { port1, port2 } = new MessageChannel();
  for (const port of [port1, port2]) (port as unknown as { unref?: () => void }).unref?.();
  const seen: ModelRequest[] = [];
  const answer = { raw: '', text: 'ok', reasoning: '', calls: [], finishReason: 'stop' as const, usage: { promptTokens: 1, completionTokens: 1 } };
  new GenerationServer(port2, { generate: async (_id, request) => (seen.push(request), answer), cancel: () => undefined });
  // What the page posts, as it posts it.
  const posted: GenerationCall[] = [];
  const post = port1.postMessage.bind(port1);
  port1.postMessage = (message: GenerationCall) => {
    post(message);
    posted.push(message);
  };
  return { client: new GenerationClient(port1), seen, posted };
}

describe('tool lists on the generation port', () => {
  const tool = (name: string): ToolDeclaration => ({ name, description: `The ${name} tool`, parameters: { type: 'object', properties: { text: { type: 'string' } } } });
  const sent = (call: GenerationCall | undefined) => (call?.kind === 'generate' ? call.request.tools.declarations : undefined);
  let next = 0;
  const generate = (client: GenerationClient, tools: readonly ToolDeclaration[]) => client.generate(++next, { ...ask, tools }, {});

  it('a list crosses once; later requests name it, and the worker gets the same list object again', async () => {
    const { client, seen, posted } = pair();
    const tools = Object.freeze([tool('echo'), tool('search')]);
    await generate(client, tools);
    await generate(client, tools);
    expect(sent(posted[0])).toEqual(tools);
    expect(sent(posted[1])).toBeUndefined();
    expect(seen[0]!.tools).toEqual(tools);
    // The worker keeps what it makes of a list (escaped, rendered, its grammar) by the list object.
    expect(seen[1]!.tools).toBe(seen[0]!.tools);
  });

  it('a tool list the caller changes in place after sending it crosses again as it is now', async () => {
    const { client, seen } = pair();
    const tools = [tool('echo')];
    await generate(client, tools);
    tools.push(tool('search'));
    await generate(client, tools);
    expect(seen[1]!.tools.map((t) => t.name)).toEqual(['echo', 'search']);
  });

  it('past the lists both ends keep, the oldest crosses again, and every request gets its own tools', async () => {
    const { client, seen, posted } = pair();
    const lists = Array.from({ length: KEPT_LISTS + 1 }, (_, i) => Object.freeze([tool(`tool_${i}`)]));
    for (const tools of lists) await generate(client, tools);
    // The newest KEPT_LISTS are named, the first is sent again.
    await generate(client, lists.at(-1)!);
    await generate(client, lists[0]!);
    expect(posted.map((call) => sent(call) !== undefined)).toEqual([...lists.map(() => true), false, true]);
    expect(seen.map((request) => request.tools[0]!.name)).toEqual([...lists.map((tools) => tools[0]!.name), `tool_${KEPT_LISTS}`, 'tool_0']);
  });

  it('a list that cannot cross fails its request, and the next one still gets its tools', async () => {
    const { client, seen } = pair();
    const broken = Object.freeze([{ ...tool('broken'), parameters: { type: 'object', default: () => 1 } as unknown as ToolDeclaration['parameters'] }]);
    const error = await generate(client, broken).catch((e: unknown) => e);
    expect((error as Error).name).toBe('DataCloneError');
    const tools = Object.freeze([tool('echo')]);
    await generate(client, tools);
    await generate(client, tools);
    expect(seen.map((request) => request.tools[0]!.name)).toEqual(['echo', 'echo']);
  });
});

describe('what the worker keeps of a tool list', () => {
  it('a list named again is still rendered with the request’s own system prompt and constrained by its own tool choice', async () => {
    const { client } = await connected(['one', 'two', 'three', 'four'], true);
    const tools = Object.freeze([echo]);
    const requests: FakeRequest[] = [];
    const onRequest = (request: FakeRequest) => requests.push(request);
    await client.generate(1, { ...ask, tools, system: 'Be brief.' }, { onRequest });
    await client.generate(2, { ...ask, tools, system: 'Be thorough.' }, { onRequest });
    await client.generate(3, { ...ask, tools, system: 'Be thorough.', toolChoice: 'none' }, { onRequest });
    await client.generate(4, { ...ask, tools, system: 'Be thorough.' }, { onRequest });
    const system = (r: FakeRequest) => r.messages[0]!.content;
    expect(system(requests[0]!)).toContain('Be brief.');
    expect(system(requests[1]!)).toContain('Be thorough.');
    expect(system(requests[1]!)).not.toContain('Be brief.');
    expect(system(requests[1]!)).toContain('"echo"');
    // 'none' forbids calls; 'auto' allows them: the grammar follows each request's choice.
    expect(requests[2]!.responseFormat).not.toEqual(requests[1]!.responseFormat);
    expect(requests[3]!.responseFormat).toEqual(requests[1]!.responseFormat);
  });
});

describe('message lists on the generation port', () => {
  function chatPair() {
    const { client, seen, posted } = pair();
    let next = 0;
    const generate = (messages: ModelMessage[]) => client.generate(++next, { ...ask, messages }, {});
    // How much of each request went as a list the worker holds, and how much was sent.
    const shapes = () => posted.flatMap((call) => (call.kind === 'generate' ? [{ keep: call.request.messages.keep, append: call.request.messages.append.length }] : []));
    return { generate, seen, shapes };
  }
  const user = (content: string): ModelMessage => ({ role: 'user', content });
  const turn = (raw: string): ModelMessage => ({ role: 'assistant', raw, text: raw, calls: [] });
  const texts = (request: ModelRequest | undefined) => request?.messages.map((m) => ('content' in m ? m.content : 'raw' in m ? m.raw : '?'));

  it('a conversation that goes on sends only what it adds, and the worker gets the same message objects again', async () => {
    const { generate, seen, shapes } = chatPair();
    const first = [user('hi')];
    await generate(first);
    await generate([...first, turn('hello'), user('more')]);
    expect(shapes()).toEqual([{ keep: 0, append: 1 }, { keep: 1, append: 2 }]);
    expect(texts(seen[1])).toEqual(['hi', 'hello', 'more']);
    expect(seen[1]!.messages[0]).toBe(seen[0]!.messages[0]);
  });

  it('a list that parts from the last (a rewind) sends from where they part, one that shares nothing sends all, and chats taking turns each go on from their own', async () => {
    const { generate, seen, shapes } = chatPair();
    const a = [user('a1'), turn('a2')];
    const b = [user('b1')];
    await generate(a);
    await generate(b);
    await generate([...a, user('a3')]);
    await generate([a[0]!, turn('a2, again')]);
    await generate([...b, turn('b2')]);
    expect(shapes()).toEqual([
      { keep: 0, append: 2 },
      { keep: 0, append: 1 },
      { keep: 2, append: 1 },
      { keep: 1, append: 1 },
      { keep: 1, append: 1 },
    ]);
    expect(seen.map(texts)).toEqual([['a1', 'a2'], ['b1'], ['a1', 'a2', 'a3'], ['a1', 'a2, again'], ['b1', 'b2']]);
  });

  it('a message list the caller changes in place after sending it is sent as it is now', async () => {
    const { generate, seen } = chatPair();
    const messages = [user('hi')];
    await generate(messages);
    messages.push(turn('hello'), user('more'));
    await generate(messages);
    expect(texts(seen[1])).toEqual(['hi', 'hello', 'more']);
  });

  it('past the lists both ends keep, a conversation is sent whole again; one that cannot cross changes nothing', async () => {
    const { generate, seen, shapes } = chatPair();
    const chats = Array.from({ length: KEPT_LISTS + 1 }, (_, i) => [user(`chat ${i}`)]);
    for (const messages of chats) await generate(messages);
    await generate([...chats[0]!, turn('on')]);
    expect(shapes().at(-1)).toEqual({ keep: 0, append: 2 });
    const last = chats.at(-1)!;
    const error = await generate([...last, { role: 'user', content: (() => 1) as unknown as string }]).catch((e: unknown) => e);
    expect((error as Error).name).toBe('DataCloneError');
    await generate([...last, turn('fine')]);
    expect(shapes().at(-1)).toEqual({ keep: 1, append: 1 });
    expect(texts(seen.at(-1))).toEqual([`chat ${KEPT_LISTS}`, 'fine']);
  });
});
