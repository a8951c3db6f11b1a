import { describe, expect, it } from 'vitest';
import { Serial } from './serial.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Serial', () => {
  it('runs work one piece at a time, in the order queued, past failures', async () => {
    const queue = new Serial();
    const log: string[] = [];
    let release!: () => void;
    const first = queue.run(async () => {
      log.push('first starts');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('first ends');
      throw new Error('first failed');
    });
    const second = queue.run(async () => void log.push('second'));
    await tick();
    expect(log).toEqual(['first starts']);
    expect(queue.busy).toBe(true);
    release();
    await expect(first).rejects.toThrow('first failed');
    await second;
    expect(log).toEqual(['first starts', 'first ends', 'second']);
    expect(queue.busy).toBe(false);
  });

  it('work aborted while it waits rejects at once and never starts; started work settles itself', async () => {
    const queue = new Serial();
    let release!: () => void;
    const controller = new AbortController();
    const running = queue.run(() => new Promise<string>((resolve) => (release = () => resolve('finished'))), controller.signal);
    let ran = false;
    const waiting = queue.run(async () => void (ran = true), controller.signal);
    await tick();
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    release();
    await expect(running).resolves.toBe('finished');
    await queue.run(async () => undefined);
    expect(ran).toBe(false);
    await expect(queue.run(async () => 1, controller.signal)).rejects.toThrow('stop');
  });
});
