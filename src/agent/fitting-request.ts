// One generation on the part of the chat that fits the model's context
// window (context-window.ts decides the part; this asks the model).
import { ContextOverflowError, isModelError } from '../errors/index.js';
import type { ChatEvents } from './chat-events.js';
import type { ContextWindow } from './context-window.js';
import type { ResolvedStep } from './prepare-step.js';
import type { ChatMessage } from '../shared/chat.js';
import type { ChatModel, GenerateOptions, ModelRequest, ModelResponse } from '../shared/model.js';

/** What a generation needs of its chat. */
export interface FittingContext {
  readonly model: ChatModel;
  readonly messages: readonly ChatMessage[];
  readonly window: ContextWindow;
  readonly grammar?: boolean;
  emit(type: 'context-trimmed', event: ChatEvents['context-trimmed']): void;
}

/**
 * One generation, on the part of the chat that fits the model's context
 * window. If the engine still finds the prompt too long (an estimate was
 * off), the view is trimmed harder once and the request made again; then it
 * is a ContextOverflowError. Nothing was generated either time.
 */
export async function generateFitting(context: FittingContext, call: ResolvedStep, output: ModelRequest['output'], options: GenerateOptions): Promise<ModelResponse> {
  for (let harder = false; ; harder = true) {
    const { request, reservedTokens } = await buildRequest(context, call, output, harder);
    try {
      return await context.model.generate(request, options);
    } catch (error) {
      if (!isModelError(error) || error.engineError !== 'ContextWindowSizeExceededError') throw error;
      if (harder) {
        // WebLLM's own count: "number of prompt tokens: N; context window size: W".
        const [, prompt, window] = /prompt tokens: (\d+); context window size: (\d+)/.exec(error.reason) ?? [];
        throw new ContextOverflowError({ promptTokens: Number(prompt ?? NaN), reservedTokens, contextWindow: Number(window ?? context.model.info.contextWindow) });
      }
    }
  }
}

async function buildRequest(context: FittingContext, call: ResolvedStep, output: ModelRequest['output'], harder: boolean): Promise<{ request: ModelRequest; reservedTokens: number }> {
  const { system, tools, toolChoice, generation } = call;
  const view = await context.window.view(context.messages, system, tools.declarations, generation?.maxTokens, harder);
  if (view.trim) context.emit('context-trimmed', view.trim);
  const request: ModelRequest = {
    system,
    messages: view.messages,
    tools: tools.declarations,
    toolChoice,
    grammar: context.grammar,
    generation,
    ...(output ? { output } : {}),
  };
  return { request, reservedTokens: view.reservedTokens };
}
