// WebLLM's load reports, in bytes. WebLLM reports a fraction per phase and
// its own text; the fraction of the weights phases is fetched bytes over the
// total of the model's manifest (tensor-cache.json: its shards' `nbytes`, see
// webllm/cache-layout.ts), so with that total the bytes are exact at shard granularity.
import type { LoadProgress } from '../shared/model.js';

/** What WebLLM's initProgressCallback gives (its InitProgressReport). */
export interface WebLLMReport {
  progress: number;
  timeElapsed: number;
  text: string;
}

/** How far back the download speed looks. */
const SPEED_WINDOW_MS = 5_000;

/** Download speed over the last seconds, one reading per report of the bytes loaded so far (undefined at the first). */
export function downloadSpeed(now: () => number = () => performance.now()): (loaded: number) => number | undefined {
  const samples: Array<{ at: number; loaded: number }> = [];
  return (loaded) => {
    const at = now();
    samples.push({ at, loaded });
    while (samples.length > 2 && at - samples[0]!.at > SPEED_WINDOW_MS) samples.shift();
    const first = samples[0]!;
    return at > first.at ? Math.round(((loaded - first.loaded) * 1000) / (at - first.at)) : undefined;
  };
}

/** A reader of one load's reports; `total()` is the manifest's byte count once known. */
export function byteProgress(total: () => number | undefined, now: () => number = () => performance.now()): (report: WebLLMReport) => LoadProgress {
  const speed = downloadSpeed(now);
  return ({ progress, timeElapsed, text }) => {
    const phase = phaseOf(text);
    const bytes = total();
    const base: LoadProgress = { progress, text, timeElapsedSeconds: timeElapsed, phase };
    if (phase === 'compile' || bytes === undefined) return base;
    const loaded = Math.round(progress * bytes);
    if (phase !== 'download') return { ...base, loaded, total: bytes };
    const bytesPerSecond = speed(loaded);
    return { ...base, loaded, total: bytes, ...(bytesPerSecond !== undefined ? { bytesPerSecond } : {}) };
  };
}

/** WebLLM 0.2.86's texts: "Fetching param cache[…", "Loading model from cache[…", "Loading GPU shader modules[…", "Finish loading on …". */
export function phaseOf(text: string): LoadProgress['phase'] {
  if (text.startsWith('Loading GPU shader modules')) return 'compile';
  if (text.startsWith('Loading model from cache') || text.startsWith('Finish loading')) return 'load';
  return 'download';
}
