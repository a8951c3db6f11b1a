// Errors as one sentence a person can act on. tabagent's errors carry fields
// (reason, issues, fallbackModelId…): the sentence is built from those, not
// from `message`, which repeats what the error's class already says.
import {
  isDeviceLostError,
  isInvalidChatExportError,
  isModelLoadError,
  isModelNotLoadedError,
  isShaderF16UnsupportedError,
  isWebGPUUnavailableError,
  isWorkerCrashedError,
} from '../src/index.js';

/** "Could not load Qwen2.5 1.5B: the network request failed." */
export function loadFailureText(label: string, error: unknown): string {
  return `Could not load ${label}: ${sentence(loadReason(error))}`;
}

function loadReason(error: unknown): string {
  if (isWebGPUUnavailableError(error)) return `no usable WebGPU (${error.reason})`;
  if (isShaderF16UnsupportedError(error)) return `this GPU cannot run f16 models; ${error.fallbackModelId} can`;
  if (isDeviceLostError(error)) return 'the GPU ran out of memory or was reset; a smaller model may fit';
  if (isWorkerCrashedError(error)) return "the model's worker stopped";
  if (isModelLoadError(error)) return readableReason(error.reason);
  return readableReason((error as Error)?.message ?? String(error));
}

/** Browsers word a failed fetch differently (Chrome, Firefox, Safari); people need to know only that it was the network. */
function readableReason(reason: string): string {
  if (/failed to fetch|networkerror|load failed|network (error|request)/i.test(reason)) return 'the network request failed';
  if (/quota/i.test(reason)) return 'the browser has no more room to store it';
  return reason;
}

/** Why a run failed, for the turn it failed in. */
export function runFailureText(error: unknown): string {
  if (isModelNotLoadedError(error)) return 'No model is loaded: choose one from the model menu.';
  if (isModelLoadError(error) || isWebGPUUnavailableError(error)) return `The model did not load: ${sentence(loadReason(error))}`;
  const e = error as { name?: string; message?: string };
  return `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`;
}

/** Why an import was refused: the first problem the file has, and how many more. */
export function importFailureText(fileName: string, error: unknown): string {
  if (!isInvalidChatExportError(error)) return `Could not import “${fileName}”: ${sentence((error as Error)?.message ?? String(error))}`;
  const [first = 'it is not a chat export', ...rest] = error.issues;
  const problem = first.startsWith('not JSON') ? 'it is not JSON' : first.startsWith('format:') ? 'it is not a tabagent chat export' : first;
  const more = rest.length ? `, and ${rest.length} more problem${rest.length === 1 ? '' : 's'}` : '';
  return `Could not import “${fileName}”: ${problem}${more}.`;
}

/** One sentence, ending with one full stop. */
function sentence(text: string): string {
  return `${text.trim().replace(/[.\s]+$/, '')}.`;
}
