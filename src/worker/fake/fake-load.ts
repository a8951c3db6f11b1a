// A fake model's scripted load: progress as a download reports it, so an app's
// loading UI, cancel button and retry path can be tested without weights.
import { ModelLoadError } from '../../errors/index.js';
import type { LoadProgress } from '../../shared/model.js';
import type { FakeLoad } from '../../rpc/worker-protocol.js';

const REPORT_EVERY_MS = 50;

export async function fakeLoad(modelId: string, load: FakeLoad, report: (p: LoadProgress) => void): Promise<void> {
  const { ms = 0, bytes = 0, fail } = load;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  // Nothing scripted: ready at once, in one report (nothing to download).
  const download = ms > 0 || bytes > 0 || fail !== undefined;
  for (let at = 0; download; ) {
    const share = ms === 0 ? 1 : Math.min(1, at / ms);
    const loaded = Math.round(bytes * share);
    report({ progress: share * 0.9, phase: 'download', loaded, total: bytes, bytesPerSecond: at > 0 ? Math.round(loaded / elapsed()) : 0, text: `Fetching ${modelId}: ${loaded} of ${bytes} bytes`, timeElapsedSeconds: elapsed() });
    if (share === 1) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(REPORT_EVERY_MS, ms - at)));
    at = Math.min(ms, performance.now() - started);
  }
  if (fail !== undefined) throw new ModelLoadError({ modelId, reason: fail, retryable: true });
  report({ progress: 1, phase: 'load', ...(download ? { loaded: bytes, total: bytes } : {}), text: `${modelId} ready (fake model: nothing to download)`, timeElapsedSeconds: elapsed() });
}
