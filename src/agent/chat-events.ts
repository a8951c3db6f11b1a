import type { ContextTrim } from './context-window.js';
import type { FinishReason } from '../shared/model.js';
import type { ToolCall } from '../shared/chat.js';
import type { ToolEvents } from '../calls/tool-events.js';

/** Everything a UI may want to draw while a chat runs. Listeners run in order, never concurrently. */
export type ChatEvents = ToolEvents & {
  /** The chat's messages changed: a commit here, or in another tab. */
  messages: { chatId: string; count: number };
  /**
   * The model starts writing a turn. `step` is its model call's place in the
   * run (`Step.index`, and a stream part's `step`): 0 for the run's first.
   */
  'model-start': { step: number };
  /** Visible text as the model writes it (never call markup). */
  text: { step: number; delta: string };
  'model-end': { step: number; text: string; toolCalls: ToolCall[]; finishReason: FinishReason; promptTokens: number; completionTokens: number };
  /** Older messages no longer fit the model's context window: the model now sees the chat from `dropped` on (the stored chat keeps all). */
  'context-trimmed': ContextTrim;
  /** A source's tools changed (an MCP server's list): `names` are the tools the next run offers (with `error`, the chat could not take the new list and keeps these). */
  'tools-changed': { chatId: string; names: string[]; error?: Error };
  /**
   * A tool this run offers has a JSON Schema the checks cannot wholly use (an
   * MCP server's or a WebMCP page's): `message` says what is left out and why
   * (`ManagedTool.warnings`). Once per tool and chat, when a run first offers it.
   */
  'tool-warning': { chatId: string; toolName: string; message: string };
  /** A hop finished: tools ran and the model is asked again; `hops` counts this run's round trips so far. */
  hop: { hops: number };
};
