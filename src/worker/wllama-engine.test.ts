// The wllama adapter with a stand-in for Wllama: stop strings go to
// llama.cpp's completion as its `stop`, which its server code applies (holding
// a stop string's first half back and leaving the string out).
import { describe, expect, it } from 'vitest';
import { wllamaEngine } from './wllama-engine.js';

describe('the wllama engine', () => {
  it('passes stop strings as the completion\'s stop', async () => {
    const seen: Record<string, unknown>[] = [];
    const wllama = {
      createCompletion: async (options: Record<string, unknown> & { onData: (chunk: unknown) => void }) => {
        seen.push(options);
        options.onData({ choices: [{ text: 'Hello there', finish_reason: null }] });
        options.onData({ choices: [{ text: '', finish_reason: 'stop' }], usage: { prompt_tokens: 4, completion_tokens: 3 } });
      },
      exit: async () => undefined,
    };
    const engine = wllamaEngine(wllama as never, 4096);
    const result = await engine.complete({ prompt: 'Hi', stop: [' END.'] }, () => undefined);
    expect(seen[0]!.stop).toEqual([' END.']);
    expect(result).toMatchObject({ text: 'Hello there', finishReason: 'stop' });
  });
});
