// What tabagent uses of WebMCP (https://webmachinelearning.github.io/webmcp/),
// described here rather than taken from a types package, so the published
// types need nothing else. The spec defines `document.modelContext` with
// `registerTool(tool, { signal })` and the `toolchange` event; listing and
// calling the page's tools (`getTools`, `executeTool`) are Chromium's, for
// agents that run in the page, and are feature-detected.
import { WebMcpUnavailableError } from '../../errors/index.js';

/** A tool as `registerTool` takes it. */
export interface WebMcpToolDescriptor {
  name: string;
  title?: string;
  description: string;
  inputSchema?: object;
  annotations?: { readOnlyHint?: boolean; untrustedContentHint?: boolean };
  execute(input: Record<string, unknown>): Promise<unknown>;
}

/** A tool as `getTools` lists it. `inputSchema` is a JSON string in Chrome before 154. */
export interface RegisteredWebMcpTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown> | string;
  annotations?: { readOnlyHint?: boolean; untrustedContentHint?: boolean };
  readonly window?: unknown;
  readonly origin?: string;
}

export interface ModelContextLike extends EventTarget {
  registerTool(tool: WebMcpToolDescriptor, options?: { signal?: AbortSignal }): Promise<void>;
  getTools?(): Promise<RegisteredWebMcpTool[]>;
  executeTool?(tool: RegisteredWebMcpTool, inputArguments: string, options?: { signal?: AbortSignal }): Promise<string | null>;
}

/** The document's ModelContext, or undefined where the browser has none (or there is no document: a worker). */
export function findModelContext(): ModelContextLike | undefined {
  const doc = (globalThis as { document?: { modelContext?: ModelContextLike } }).document;
  const context = doc?.modelContext;
  return context && typeof context.registerTool === 'function' ? context : undefined;
}

/** The ModelContext with what a consumer needs (listing and calling), or WebMcpUnavailableError saying what is missing. */
export type ConsumerContext = ModelContextLike & Required<Pick<ModelContextLike, 'getTools' | 'executeTool'>>;

export function consumerContext(): ConsumerContext {
  const context = findModelContext();
  if (!context) throw new WebMcpUnavailableError({ missing: 'document.modelContext', detail: 'no document.modelContext in this browser' });
  for (const method of ['getTools', 'executeTool'] as const) {
    if (typeof context[method] !== 'function') throw new WebMcpUnavailableError({ missing: method, detail: `no document.modelContext.${method}() to reach the page's tools` });
  }
  return context as ConsumerContext;
}
