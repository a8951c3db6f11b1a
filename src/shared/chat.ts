import type { JsonObject } from './json.js';
import type { FinishReason, GenerationOptions } from './model.js';
import type { ToolChoice } from './tool-protocol.js';
import type { ReplyStats } from './stats.js';

/** A tool call the model made. */
export interface ToolCall {
  id: string;
  name: string;
  /** The parsed arguments; `{}` when the call could not be read. */
  arguments: JsonObject;
  /** Set when the call cannot run as written, saying why (text fit to pass on to the model). */
  error?: string;
  /**
   * Why, for code: `'unknown-tool'` (not a tool of this chat: the turn comes
   * back to you), `'malformed'` or `'truncated'` (unreadable, or cut off by the
   * token limit), `'invalid-arguments'` (a key `__proto__`, `constructor` or
   * `prototype` somewhere in the arguments, dropped from `arguments`; or a
   * raw tool's call that its JSON Schema refuses): the model is told and the
   * loop goes on.
   */
  errorCode?: 'unknown-tool' | 'malformed' | 'truncated' | 'invalid-arguments';
  /**
   * Its handler started and never finished: the tab closed (or crashed) while
   * it ran. It is not run again by itself: answer it (`sendToolResult`), run it
   * again (`runTool`), or cancel it (`cancelToolCalls`).
   */
  interrupted?: boolean;
  /**
   * Interrupted, and its tool kept what it needs to pick the call up again
   * (an MCP tool called as a task: the task's id): `runTool` resumes it —
   * waits for the same work — rather than running it again.
   */
  resumable?: boolean;
  /** It needs approval, and waits for a person: `chat.approve(id)` or `chat.deny(id, reason)`. */
  awaitingApproval?: boolean;
}

/** Tokens of one model call, as the model reported them. */
export interface StepUsage {
  /** Prompt tokens the model had to read (WebLLM counts only what its KV cache did not hold). */
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the KV cache already held, so not read again (where the engine counts them: wllama). */
  cachedTokens?: number;
}

/** One model call of a run, with what became of the calls it made. */
export interface Step {
  /**
   * Its place in the run: 0 for the run's first model call. A run goes on
   * across the answers to its calls (`sendToolResult`, `runTool`) until the
   * next user message, and so does the count.
   */
  index: number;
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  /** Results of the calls run in this step, in call order (calls left to you have none here). */
  toolResults: ToolResultRecord[];
  finishReason: FinishReason;
  usage: StepUsage;
  /** Wall time waiting for the model, and running this step's tools. */
  modelMs: number;
  toolMs: number;
  /** The tools the model was offered for this call. */
  activeTools: string[];
}

export interface Reply {
  /** What the model said, without tool-call markup or reasoning. */
  text: string;
  /** A thinking model's reasoning (`<think>`), if any. */
  reasoning: string;
  /**
   * Calls waiting for the caller: any raw or unknown tool call returns the
   * whole turn (or every call, with `returnToolRequests`). Empty when done.
   */
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  /** The sum of `steps`. */
  stats: ReplyStats;
  /** Every model call of this run, in order. */
  steps: Step[];
  /**
   * Calls that need a person's approval, when the chat has no `approve`
   * callback: the run ended with them pending (stored, so they survive a
   * reload). Answer with `chat.approve(id)` or `chat.deny(id, reason)`.
   */
  approvals?: ToolCall[];
  /** When the tools ended the run (every call asked to terminate): their results, as the model would have read them. */
  toolResults?: ToolResultRecord[];
}

/**
 * What became of a call: its handler returned (`ok`) or failed (`error`,
 * `timeout`); it never ran because it was `denied` (approval), `blocked`
 * (beforeToolCall) or `invalid` (unreadable, unknown, or arguments that do not
 * fit); the run was aborted first (`stopped`); or the page gave up on it
 * (`cancelled`). A page's own answer is `ok`, or `error` when it says so.
 */
export type ToolCallStatus = 'ok' | 'error' | 'timeout' | 'denied' | 'blocked' | 'invalid' | 'stopped' | 'cancelled';

/** A tool result as stored, with the exact text the model read. */
export interface ToolResultRecord {
  callId: string;
  name: string;
  content: string;
  isError: boolean;
  /** Absent in chats stored before it was kept. */
  status?: ToolCallStatus;
  /** How long the handler ran, retries included (0 when it never ran). */
  durationMs?: number;
  /** Runs of the handler: 0 when it never ran, more than 1 when it was retried. */
  attempts?: number;
  /** The chat the call ran in, when its tool is a chat (`chat.asTool`): open it with `agent.openChat`. */
  chatId?: string;
}

export type ChatMessage =
  | { role: 'user'; content: string; createdAt: number }
  | {
      role: 'assistant';
      /** The model's output byte for byte: replayed as is, so its KV cache stays valid (unless `foreign`). */
      raw: string;
      /**
       * Not written by this store's engine: a turn of an imported chat, or an
       * assistant message given to `agent.generate`. Its `raw` is kept but
       * never read as markup: the model reads the turn written from `text`
       * and `toolCalls`, as data.
       */
      foreign?: true;
      /**
       * The model that wrote it (`modelWriter`). Its `raw` is read as markup
       * only by that model; another model, or a turn that names none (older
       * chats, an answer a closed tab left), reads it as `foreign`.
       */
      writer?: string;
      text: string;
      reasoning: string;
      toolCalls: ToolCall[];
      /** `'abort'` (stopped) and `'error'` (the model failed): the text is partial. `'length'`: cut off by the token limit. */
      finishReason: FinishReason;
      /** Tokens the model wrote, as it reported them (for fitting the context window). */
      tokens?: number;
      /** Prompt tokens it read, and how long it took (absent in older chats and interrupted turns). */
      promptTokens?: number;
      modelMs?: number;
      /** The tools the model was offered for this turn. */
      activeTools?: string[];
      createdAt: number;
    }
  | { role: 'tool'; results: ToolResultRecord[]; createdAt: number };

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/** A chat's settings, as stored with it. */
export interface ChatSettings {
  system?: string;
  /** The system prompt came with an imported chat file: the model reads it as data (its control tokens broken), not as the app's. */
  foreignSystem?: true;
  maxToolHops: number;
  maxConcurrentTools: number;
  toolChoice: ToolChoice;
  grammar?: boolean;
  generation?: GenerationOptions;
  maxResultChars: number;
  /** How the chat fits the model's context window (a strategy function is given again on open, like the hooks). */
  context?: { strategy?: 'trim' | 'error'; window?: number; reserve?: number };
}
