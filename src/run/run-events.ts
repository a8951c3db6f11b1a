// What a run tells as it goes: its model calls' events, and its managed
// calls' (calls/tool-events.ts). A chat's `on` hears these among its own
// (ChatEvents).
import type { ToolEvents } from '../calls/tool-events.js';
import type { FinishReason } from '../shared/model.js';
import type { ToolCall } from '../shared/chat.js';
import type { ContextTrim } from './context-window.js';

/** The events a run emits. */
export type RunEvents = ToolEvents & {
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
  /** A hop finished: tools ran and the model is asked again; `hops` counts this run's round trips so far. */
  hop: { hops: number };
};
