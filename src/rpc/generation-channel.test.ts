// The generation channel between the page and the worker's engine host: one
// message out per request, the model's news back in order, the end carrying
// the response or the error (a real Error of its class).
import { describe, expect, it } from 'vitest';
import { isModelError } from '../errors/index.js';
import type { ModelRequest } from '../shared/model.js';
import { FAKE_SPEC } from '../model/scripted-model.js';
import { fakeModel } from '../testing/fake-model.js';
import { toolCallText } from '../testing/calls.js';
import { EngineHost } from '../worker/engine-host.js';
import { GenerationClient } from './generation-channel.js';
import type { GenerationMessage } from './worker-protocol.js';

const echo = { name: 'echo', description: 'Echo', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
const ask: ModelRequest = { messages: [{ role: 'user', content: 'go' }], tools: [echo], toolChoice: 'auto' };

async function connected(script: Parameters<typeof fakeModel>[0]) {
  const host = new EngineHost();
  const { port1, port2 } = new MessageChannel();
  for (const port of [port1, port2]) (port as unknown as { unref?: () => void }).unref?.();
  host.connect(port2);
  const { respond, record: _, firstTurn, ...spec } = fakeModel(script)[FAKE_SPEC];
  await host.load({ kind: 'fake', ...spec, recordRequests: false, firstTurn: firstTurn() }, undefined, respond);
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
