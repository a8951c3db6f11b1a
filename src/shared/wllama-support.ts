// What wllama's main build needs of the browser: WebAssembly memory64 and
// JSPI (current Chromium has both). Asked by the page (listModels' `runnable`)
// and by the worker (before any download), so here, below both.

/** The features this browser lacks for wllama; empty when it can run it. */
export function missingWllamaFeatures(): string[] {
  const missing: string[] = [];
  if (!(WebAssembly as { Suspending?: unknown }).Suspending) missing.push('JSPI (WebAssembly.Suspending)');
  try {
    new WebAssembly.Memory({ address: 'i64', initial: 1n } as unknown as WebAssembly.MemoryDescriptor);
  } catch {
    missing.push('WebAssembly memory64');
  }
  return missing;
}
