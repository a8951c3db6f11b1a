// A stand-in until the Prompt API engine lands (issue 37 part 2, helper
// "promptapi", builds this module): Chrome's built-in model counts as
// unavailable, so a fallback chain skips it and says why.
import { EngineUnavailableError } from '../../errors/index.js';
import type { LoadedModel } from '../agent-model.js';
import type { ModelOptions } from '../model-session.js';
import { CHROME_BUILTIN } from './chrome-builtin.js';

export function startPromptApiModel(_options: ModelOptions, _signal: AbortSignal): { started: Promise<void>; loaded: Promise<LoadedModel> } {
  return { started: Promise.resolve(), loaded: Promise.reject(new EngineUnavailableError('prompt-api', CHROME_BUILTIN, 'this build of tabagent has no Prompt API engine yet')) };
}
