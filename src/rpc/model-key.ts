// What a loaded model is, as one string: two specs with the same key load the
// same thing, so a shared host lets a second tab join the model the first
// loaded, and the page names its SharedWorker by it (one per origin and
// model). Only what changes the loaded model counts: not a fake's record
// flag, its turn to resume at, its scripted load or its speed (the first
// tab's fake sets the pace for all).
import type { ModelSpec } from './worker-protocol.js';

/** The key of `spec`'s model; null for a model no other tab can name (a GGUF from a Blob, a file the person picked). */
export function modelKey(spec: ModelSpec): string | null {
  if (spec.kind === 'gguf' && spec.url === undefined) return null;
  if (spec.kind === 'fake') {
    const { recordRequests: _r, firstTurn: _f, load: _l, tokenDelayMs: _t, ...loaded } = spec;
    return canonical(loaded);
  }
  return canonical(spec);
}

/** JSON with object keys sorted, so the same spec always reads the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
