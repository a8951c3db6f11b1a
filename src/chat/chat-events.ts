import type { RunEvents } from '../run/run-events.js';

/**
 * Everything a UI may want to draw while a chat runs: its runs' events
 * (RunEvents: the model's turns, the tools' calls) and the chat's own.
 * Listeners run in order, never concurrently.
 */
export type ChatEvents = RunEvents & {
  /** The chat's messages changed: a commit here, or in another tab. */
  messages: { chatId: string; count: number };
  /** A source's tools changed (an MCP server's list): `names` are the tools the next run offers (with `error`, the chat could not take the new list and keeps these). */
  'tools-changed': { chatId: string; names: string[]; error?: Error };
  /**
   * A tool this run offers has a JSON Schema the checks cannot wholly use (an
   * MCP server's or a WebMCP page's): `message` says what is left out and why
   * (`ManagedTool.warnings`). Once per tool and chat, when a run first offers it.
   */
  'tool-warning': { chatId: string; toolName: string; message: string };
};
