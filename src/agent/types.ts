import type { JsonObject } from '../json.js';
import type { FinishReason } from '../model/types.js';
import type { ReplyStats } from '../stats.js';

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
   * token limit: the model is told and the loop goes on).
   */
  errorCode?: 'unknown-tool' | 'malformed' | 'truncated';
  /**
   * Its handler started and never finished: the tab closed (or crashed) while
   * it ran. It is not run again by itself: answer it (`sendToolResult`), run it
   * again (`runTool`), or cancel it (`cancelToolCalls`).
   */
  interrupted?: boolean;
}

export type { ReplyStats } from '../stats.js';

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
  stats: ReplyStats;
  /** When the tools ended the run (every call asked to terminate): their results, as the model would have read them. */
  toolResults?: ToolResultRecord[];
}

/** A tool result as stored, with the exact text the model read. */
export interface ToolResultRecord {
  callId: string;
  name: string;
  content: string;
  isError: boolean;
}

export type ChatMessage =
  | { role: 'user'; content: string; createdAt: number }
  | {
      role: 'assistant';
      /** The model's output byte for byte: replayed as is, so its KV cache stays valid. */
      raw: string;
      text: string;
      reasoning: string;
      toolCalls: ToolCall[];
      /** `'abort'`: interrupted, the text is partial. `'length'`: cut off by the token limit. */
      finishReason: FinishReason;
      /** Tokens the model wrote, as it reported them (for fitting the context window). */
      tokens?: number;
      createdAt: number;
    }
  | { role: 'tool'; results: ToolResultRecord[]; createdAt: number };

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;
