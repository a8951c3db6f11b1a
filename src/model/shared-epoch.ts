// Which instance of a model's shared worker the tabs use. A shared worker that
// hangs cannot be ended by any tab, and the browser keeps it while any tab
// that used it lives, so a restart under the same name would find it again.
// Tabs that saw it die move on to the next epoch, a name of its own; it is
// kept in localStorage, so every tab that saw the same death lands on the
// same new worker, and a tab opened later finds it too.
const inMemory = new Map<string, number>();

/** The epoch to name `key`'s shared worker with; `crashed`: the epoch of a worker this tab saw die. */
export function sharedEpoch(key: string, crashed?: number): number {
  const slot = `tabagent-shared-epoch:${key}`;
  const stored = read(slot);
  if (crashed === undefined || crashed < stored) return stored;
  write(slot, crashed + 1);
  return crashed + 1;
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    // Storage denied (a sandboxed frame): this tab's own memory.
    return undefined;
  }
}

function read(slot: string): number {
  const value = Number(storage()?.getItem(slot) ?? inMemory.get(slot) ?? 0);
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

function write(slot: string, epoch: number): void {
  inMemory.set(slot, epoch);
  try {
    storage()?.setItem(slot, String(epoch));
  } catch {
    // Full or denied: this tab remembers it.
  }
}
