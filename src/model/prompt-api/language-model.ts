// The Prompt API as tabagent uses it, typed from the spec's WebIDL
// (webmachinelearning/prompt-api index.bs at 2e27365ed877c3381126fcd0e10d5e0b8114c199).
// Only what tabagent calls; TypeScript's DOM types do not have it yet.

export type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

export type LanguageModelRole = 'system' | 'user' | 'assistant';

/** A message in the shorthand form: text content only. */
export interface LanguageModelMessage {
  role: LanguageModelRole;
  content: string;
  prefix?: boolean;
}

export type LanguageModelPrompt = string | LanguageModelMessage[];

export interface LanguageModelExpected {
  type: 'text' | 'image' | 'audio' | 'tool-call' | 'tool-response';
  languages?: string[];
}

export interface CreateMonitor extends EventTarget {
  addEventListener(type: 'downloadprogress', listener: (event: Event & { loaded: number; total?: number }) => void): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void;
}

export interface LanguageModelCreateCoreOptions {
  expectedInputs?: LanguageModelExpected[];
  expectedOutputs?: LanguageModelExpected[];
}

export interface LanguageModelCreateOptions extends LanguageModelCreateCoreOptions {
  signal?: AbortSignal;
  monitor?: (monitor: CreateMonitor) => void;
  initialPrompts?: LanguageModelMessage[];
}

export interface LanguageModelPromptOptions {
  /** A JSON Schema (or a RegExp) the reply must match. */
  responseConstraint?: object;
  omitResponseConstraintInput?: boolean;
  signal?: AbortSignal;
}

export interface LanguageModelSession extends EventTarget {
  prompt(input: LanguageModelPrompt, options?: LanguageModelPromptOptions): Promise<string>;
  /** A stream of the reply's new text, a piece per chunk. */
  promptStreaming(input: LanguageModelPrompt, options?: LanguageModelPromptOptions): ReadableStream<string>;
  append(input: LanguageModelPrompt, options?: { signal?: AbortSignal }): Promise<void>;
  measureContextUsage(input: LanguageModelPrompt, options?: LanguageModelPromptOptions): Promise<number>;
  readonly contextUsage: number;
  /** May be +Infinity. */
  readonly contextWindow: number;
  clone(options?: { signal?: AbortSignal }): Promise<LanguageModelSession>;
  destroy(): void;
}

/** The `LanguageModel` interface object (its statics). */
export interface LanguageModelApi {
  availability(options?: LanguageModelCreateCoreOptions): Promise<Availability>;
  create(options?: LanguageModelCreateOptions): Promise<LanguageModelSession>;
}

/** The page's `LanguageModel`, when this browser has one. */
export function pageLanguageModel(): LanguageModelApi | undefined {
  const api = (globalThis as { LanguageModel?: LanguageModelApi }).LanguageModel;
  return typeof api === 'function' || (typeof api === 'object' && api !== null) ? api : undefined;
}
