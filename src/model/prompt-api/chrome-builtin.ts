// The model id that names Chrome's built-in model (the Prompt API). A module
// of its own so the dispatcher can tell it at once without loading the engine.

/** `createAgent({ model: CHROME_BUILTIN })`: Chrome's built-in model through the Prompt API, on the page. */
export const CHROME_BUILTIN = 'chrome-builtin';

export function isChromeBuiltin(model: unknown): model is typeof CHROME_BUILTIN {
  return model === CHROME_BUILTIN;
}
