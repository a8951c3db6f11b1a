/**
 * A module loaded on first use and kept: every later call gets the same
 * promise. A bundler's dynamic import is not free on each call (vite's
 * preload helper resolves URLs and queries the document every time), and the
 * hot paths ask once per tool call or run. A failed load is not kept, so the
 * next call tries again.
 */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
