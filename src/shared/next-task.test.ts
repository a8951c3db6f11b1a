import { describe, expect, it } from 'vitest';
import { nextTask } from './next-task.js';

describe('nextTask', () => {
  it('resolves after this task and its microtasks, in the order asked, and again and again', async () => {
    const order: string[] = [];
    const first = nextTask().then(() => order.push('task 1'));
    const second = nextTask().then(() => order.push('task 2'));
    void Promise.resolve().then(() => order.push('microtask'));
    order.push('sync');
    await Promise.all([first, second]);
    expect(order).toEqual(['sync', 'microtask', 'task 1', 'task 2']);
    await nextTask();
    await nextTask();
  });
});
