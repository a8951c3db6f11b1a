// A server model as the page sees it: the shape of the AI SDK's
// LanguageModelV4 that tabagent uses, written out here so the page entry
// imports nothing of the AI SDK (an optional peer). Field names and unions
// follow @ai-sdk/provider 4.0.38 (dist/index.d.ts, LanguageModelV4*).

export type ServerJson = null | boolean | number | string | ServerJson[] | { [key: string]: ServerJson | undefined };

export type ServerPromptMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: Array<{ type: 'text'; text: string }> }
  | { role: 'assistant'; content: Array<{ type: 'text'; text: string } | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }> }
  | { role: 'tool'; content: Array<{ type: 'tool-result'; toolCallId: string; toolName: string; output: { type: 'text'; value: string } }> };

export interface ServerCallOptions {
  prompt: ServerPromptMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  stopSequences?: string[];
  responseFormat?: { type: 'text' } | { type: 'json'; schema?: unknown };
  tools?: Array<{ type: 'function'; name: string; description?: string; inputSchema: unknown }>;
  toolChoice?: { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; toolName: string };
  reasoning?: 'none';
  abortSignal?: AbortSignal;
}

/** The stream parts tabagent reads; any other part is passed over. */
export type ServerStreamPart =
  | { type: 'text-delta'; delta: string }
  | { type: 'reasoning-delta'; delta: string }
  | { type: 'tool-input-start'; id: string; toolName: string; providerExecuted?: boolean }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string; providerExecuted?: boolean }
  | {
      type: 'finish';
      finishReason: { unified: string; raw?: string };
      usage: { inputTokens: { total?: number; noCache?: number; cacheRead?: number }; outputTokens: { total?: number } };
    }
  | { type: 'error'; error: unknown }
  | { type: string };

/** Any AI SDK provider's model (`openai('gpt-4.1')`, `createOpenAICompatible(...)(id)`, `MockLanguageModelV4`…). */
export interface ServerLanguageModel {
  readonly specificationVersion: 'v4';
  readonly provider: string;
  readonly modelId: string;
  doStream(options: ServerCallOptions): PromiseLike<{ stream: ReadableStream<ServerStreamPart> }>;
}

/** A value is a server model when it carries the V4 spec's marks (checked by shape, never instanceof: providers are separate packages). */
export function isServerModel(value: unknown): value is ServerLanguageModel {
  if (typeof value !== 'object' || value === null) return false;
  const model = value as Partial<ServerLanguageModel>;
  return model.specificationVersion === 'v4' && typeof model.doStream === 'function' && typeof model.modelId === 'string' && typeof model.provider === 'string';
}
