import type { JsonSchema, JsonValue } from '../shared/json.js';

/**
 * What checks a managed tool's input: a zod schema, or any Standard Schema
 * (https://standardschema.dev), such as the JSON Schema check of an MCP tool.
 */
export interface InputSchema {
  readonly '~standard': {
    validate(value: unknown): StandardResult | Promise<StandardResult>;
  };
}

type StandardResult =
  | { readonly value: unknown; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> }> };

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
  /**
   * Keep `state` (JSON) with the call while it runs, on disk once this
   * resolves: a call that a reload or a closed tab cuts off can then be
   * resumed (`chat.runTool`), its handler given `resumed`, instead of run
   * again. For work that goes on elsewhere (a task on a server).
   */
  keep?(state: JsonValue): Promise<void>;
  /** What this call kept (`keep`) before it was cut off, when `runTool` resumes it. */
  resumed?: JsonValue;
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
  readonly input: InputSchema;
  /** JSON Schema of the input, as the model is shown it. */
  readonly parameters: JsonSchema;
  readonly onError: ErrorPolicy;
  /** Ask the chat's `approve` callback before running: always, or when this returns true for the input. */
  readonly needsApproval: boolean | ((input: Input) => boolean | Promise<boolean>);
  readonly retry?: RetryPolicy;
  /** Abort `ctx.signal` and fail with ToolTimeoutError after this long. */
  readonly timeoutMs?: number;
  /**
   * What of its JSON Schema is not checked before a call (an MCP or WebMCP
   * tool whose server wrote what the checks cannot use), one sentence each;
   * a chat emits `tool-warning` for each the first time it offers the tool.
   */
  readonly warnings?: readonly string[];
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

/**
 * Tools that come and go (an MCP server's): a chat given one offers its
 * current tools, and takes the new list for its next run when it changes.
 */
export interface ToolSource {
  readonly kind: 'source';
  /** Put before a tool's name (`namespace_name`) when another tool of the chat has the same name. */
  readonly namespace: string;
  /** The tools offered now. */
  readonly tools: readonly Tool[];
  /** Hear of changes to `tools`; returns the function that stops listening. */
  subscribe(listener: () => void): () => void;
}

/** What a chat's `tools` option takes: tools, and sources of tools. */
export type ToolEntry = Tool | ToolSource;
