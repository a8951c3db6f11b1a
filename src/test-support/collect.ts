// Forced garbage collection in a unit test: V8's gc(), reached without
// starting Node with --expose-gc.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

/**
 * Whether what `ref` points to is collected within a few full collections
 * (pending jobs and finalizers run between them). Each collection runs in a
 * job of its own: a target `deref()` saw stays alive until its job ends.
 */
export async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 10; i++) {
    await tick();
    gc();
    if (ref.deref() === undefined) return true;
  }
  return false;
}
