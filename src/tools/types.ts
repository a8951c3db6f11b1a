import type { $ZodType } from 'zod/v4/core';
import type { JsonSchema } from '../shared/json.js';

/** What a handler gets besides its input. */
export interface ToolContext {
  /** The id of the call being answered. */
  callId: string;
  /** Aborts when the run is aborted or the tool times out: stop work and throw. */
  signal: AbortSignal;
  /** Report progress (any JSON-like details); the chat emits a `tool-progress` event. */
  update(details: unknown): void;
  /**
   * Ask to end the run after this batch of calls instead of going back to the
   * model. The run ends only if every call of the batch asks.
   */
  terminate(): void;
}

/**
 * `'inform'`: a failure becomes `{"error": message}` for the model, and the loop goes on.
 * `'return'` (default): `send` rejects with a ToolExecutionError and the call stays pending.
 */
export type ErrorPolicy = 'inform' | 'return';

export interface RetryPolicy {
  /** Tries in all, the first included (≥ 1). */
  attempts: number;
  /** Wait before try n+1 (ms), or a function of n (1-based). Default 0. */
  backoffMs?: number | ((attempt: number) => number);
  /** Which failures are worth another try (default: all). An aborted call is never retried. */
  retryOn?: (error: unknown) => boolean;
}

/** How a tool behaves, as a UI or an approval policy may want to know. */
export interface ToolTraits {
  /** Only reads: safe to run without asking. */
  readOnly?: boolean;
  /** Changes or deletes things that cannot be undone. */
  destructive?: boolean;
}

/** A typed tool that the loop runs itself. */
export interface ManagedTool<Input = any, Output = unknown> extends ToolTraits {
  readonly kind: 'managed';
  readonly name: string;
  readonly description: string;
  readonly input: $ZodType;
  /** JSON Schema of the input, as the model is shown it. */
  readonly parameters: JsonSchema;
  readonly onError: ErrorPolicy;
  /** Ask the chat's `approve` callback before running: always, or when this returns true for the input. */
  readonly needsApproval: boolean | ((input: Input) => boolean | Promise<boolean>);
  readonly retry?: RetryPolicy;
  /** Abort `ctx.signal` and fail with ToolTimeoutError after this long. */
  readonly timeoutMs?: number;
  readonly run: (input: Input, context: ToolContext) => Output | Promise<Output>;
}

/** A declared tool whose calls come back to the page, answered with `sendToolResult`. */
export interface RawTool extends ToolTraits {
  readonly kind: 'raw';
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
}

export type Tool = ManagedTool<any, any> | RawTool;
