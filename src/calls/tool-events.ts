// What a managed call tells as it goes, from the call pipeline: a chat's
// `on` hears these among its other events (ChatEvents).
import type { ToolCallStatus } from '../shared/chat.js';

/** The events a managed call's steps emit. */
export type ToolEvents = {
  /** A managed call starts running (after validation, hooks and approval). */
  'tool-start': { callId: string; toolName: string; input: unknown };
  /** A handler reported progress with `ctx.update(details)`. */
  'tool-progress': { callId: string; toolName: string; details: unknown };
  /** A managed call is done: its result or error as the model will read it, and how long it took. */
  'tool-end': { callId: string; toolName: string; content: string; isError: boolean; status: ToolCallStatus; durationMs: number; attempts: number; chatId?: string };
  /** A call needs approval and `approve` is asked: a UI can show the question before the answer comes. */
  'approval-request': { callId: string; toolName: string; input: unknown };
  /** A call was refused: denied by `approve`, or blocked by `beforeToolCall`. */
  'tool-denied': { callId: string; toolName: string; reason: string };
};

export type ToolEventName = keyof ToolEvents;
