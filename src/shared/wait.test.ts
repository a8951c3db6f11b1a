import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { wait } from './wait.js';

describe('wait', () => {
  it('resolves after its time and leaves no abort listener behind, however many times it waits on one signal', async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i++) await wait(1, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the abort reason, at once when already aborted, and then too leaves no listener', async () => {
    const controller = new AbortController();
    const waiting = wait(60_000, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await expect(wait(0, controller.signal)).rejects.toThrow('stop');
  });
});
