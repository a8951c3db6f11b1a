// The WebLLM adapter with a stand-in for MLCEngine that streams as WebLLM
// 0.2.86 does with a stop string (its makeStreamDeltaChunk and
// processNextToken): what it decoded so far, then nothing once the stop
// string is whole and cut; the message it keeps is the cut one.
import { describe, expect, it } from 'vitest';
import { webllmEngine } from './webllm-engine.js';

function standIn(pieces: string[], kept: string) {
  const requests: Record<string, unknown>[] = [];
  const engine = {
    chat: {
      completions: {
        create: async (request: Record<string, unknown>) => {
          requests.push(request);
          return (async function* () {
            for (const content of pieces) yield { choices: [{ delta: { content }, finish_reason: null }] };
            yield { choices: [{ delta: {}, finish_reason: 'stop' }] };
            yield { choices: [], usage: { prompt_tokens: 5, completion_tokens: pieces.length } };
          })();
        },
      },
    },
    getMessage: async () => kept,
    interruptGenerate: () => undefined,
    unload: async () => undefined,
  };
  return { engine: webllmEngine(engine as never), requests };
}

describe('the WebLLM engine', () => {
  it('passes stop strings as the request\'s stop, and keeps the message WebLLM kept', async () => {
    const { engine, requests } = standIn(['Hello', ' there', ' END', ''], 'Hello there');
    const deltas: string[] = [];
    const result = await engine.complete({ messages: [{ role: 'user', content: 'hi' }], stop: [' END.'] }, (d) => deltas.push(d));
    expect(requests[0]!.stop).toEqual([' END.']);
    expect(result).toMatchObject({ text: 'Hello there', finishReason: 'stop' });
  });

  it('without stop strings the text is what streamed', async () => {
    const { engine, requests } = standIn(['Hello', ' there'], 'unused');
    const result = await engine.complete({ messages: [{ role: 'user', content: 'hi' }] }, () => undefined);
    expect(requests[0]!.stop).toBeUndefined();
    expect(result.text).toBe('Hello there');
  });
});
