/** The model id that asks for Chrome's built-in model (the Prompt API). */
export const CHROME_BUILTIN = 'chrome-builtin';
