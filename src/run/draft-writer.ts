// The answer being written, kept on disk as it streams, so a closed tab loses
// none of what the person saw.
/** How often, at most, the answer being written goes to disk. */
const DRAFT_INTERVAL_MS = 250;

/**
 * The answer being written, kept on disk as it streams: at most one write per
 * DRAFT_INTERVAL_MS, one at a time, never on the per-token path. A failed
 * write only loses the draft (the commit that ends the answer reports errors).
 */
export function draftWriter(save: (text: string) => Promise<void>) {
  let text = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  let stopped = false;
  const flush = () => {
    timer = undefined;
    const shown = text;
    writing = writing.then(() => save(shown)).catch(() => undefined);
  };
  return {
    update(shown: string): void {
      text = shown;
      if (!timer && !stopped) timer = setTimeout(flush, DRAFT_INTERVAL_MS);
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await writing;
    },
  };
}
