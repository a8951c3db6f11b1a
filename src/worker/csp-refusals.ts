// What the page's Content-Security-Policy refused the worker. A refused fetch
// or import rejects with a bare TypeError ("Failed to fetch"), as a network
// failure does; only the securitypolicyviolation event, which reaches the
// worker's global a task or so later, names the URL and the directive. The
// worker inherits the page's policy (it starts from a blob: URL, or is
// same-origin), so this is where a load learns why it failed. Every bundle
// that fetches (the worker, the wllama engine) keeps its own record.
import { ModelLoadError } from '../errors/index.js';

interface Refusal {
  url: string;
  directive: string;
}

const seen: Refusal[] = [];
/** Refusals ever recorded: marks stay valid when old entries go. */
let count = 0;

const scope = globalThis as { addEventListener?: (type: string, listener: (event: Event) => void) => void };
scope.addEventListener?.('securitypolicyviolation', (event) => {
  const { blockedURI, effectiveDirective } = event as SecurityPolicyViolationEvent;
  seen.push({ url: blockedURI, directive: effectiveDirective });
  count++;
  if (seen.length > 16) seen.shift();
});

/** Where the record stands: give it to `refusalError` once something failed. */
export function refusalMark(): number {
  return count;
}

/**
 * The ModelLoadError for what the policy refused since `mark` (`url`, when
 * given: the fetch that failed), or undefined where it refused nothing. Waits
 * a little for the event, which comes after the failure it explains.
 */
export async function refusalError(modelId: string, mark: number, url?: string): Promise<ModelLoadError | undefined> {
  for (const ms of [0, 10, 40]) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    const since = seen.slice(Math.max(0, seen.length - (count - mark)));
    const refusal = since.find((r) => url === undefined || r.url === url || url.startsWith(r.url));
    if (refusal) {
      const shown = url ?? refusal.url;
      const origin = URL.canParse(shown) ? new URL(shown).origin : shown;
      return new ModelLoadError({ modelId, reason: `the page's Content-Security-Policy refused ${shown} (${refusal.directive}): allow ${origin} in ${refusal.directive}`, retryable: false });
    }
  }
  return undefined;
}

/** The smallest WebAssembly module there is: its magic number and version. */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/**
 * The ModelLoadError for a policy that refuses WebAssembly (no
 * 'wasm-unsafe-eval' in script-src: Chrome's default for an extension's
 * pages), which every engine needs: llama.cpp, WebLLM's runtime and xgrammar
 * are WebAssembly. Asked before anything is downloaded; without it, the first
 * grammar or the engine failed later with a bare RuntimeError.
 */
export function wasmRefusal(modelId: string): ModelLoadError | undefined {
  try {
    new WebAssembly.Module(EMPTY_MODULE);
    return undefined;
  } catch (cause) {
    const reason = typeof WebAssembly === 'undefined' ? 'this browser runs no WebAssembly, which every engine needs' : `the page's Content-Security-Policy refuses WebAssembly, which every engine needs: add 'wasm-unsafe-eval' to script-src (in an extension, to content_security_policy.extension_pages) (${(cause as Error).message})`;
    return new ModelLoadError({ modelId, reason, retryable: false }, { cause });
  }
}
