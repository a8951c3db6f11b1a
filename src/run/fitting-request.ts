// One generation on the part of the chat that fits the model's context
// window (context-window.ts decides the part; this asks the model).
import { ContextOverflowError, isModelError } from '../errors/index.js';
import type { RunEvents } from './run-events.js';
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
  emit(type: 'context-trimmed', event: RunEvents['context-trimmed']): void;
}

/**
 * One generation, on the part of the chat that fits the model's context
 * window. If the engine still finds the prompt too long (an estimate was
 * off, or the chat's `context.window` is larger than the engine's), the view
 * is trimmed harder once, in the window the engine says it has, and the
 * request made again; then it is a ContextOverflowError. Nothing was
 * generated either time.
 */
export async function generateFitting(context: FittingContext, call: ResolvedStep, output: ModelRequest['output'], options: GenerateOptions): Promise<ModelResponse> {
  let refused: { window?: number } | undefined;
  for (;;) {
    const { request, reservedTokens } = await buildRequest(context, call, output, refused);
    try {
      return await context.model.generate(request, options);
    } catch (error) {
      if (!isModelError(error) || error.engineError !== 'ContextWindowSizeExceededError') throw error;
      // The engine's own count: "number of prompt tokens: N; context window size: W" (WebLLM's words; wllama's error says the same).
      const [, prompt, window] = /prompt tokens: (\d+); context window size: (\d+)/.exec(error.reason) ?? [];
      if (refused) throw new ContextOverflowError({ promptTokens: Number(prompt ?? NaN), reservedTokens, contextWindow: Number(window ?? context.model.info.contextWindow) });
      // Once more, trimmed harder, in the window the engine really has (the chat's may be assumed larger).
      refused = { window: window === undefined ? undefined : Number(window) };
    }
  }
}

async function buildRequest(context: FittingContext, call: ResolvedStep, output: ModelRequest['output'], refused: { window?: number } | undefined): Promise<{ request: ModelRequest; reservedTokens: number }> {
  const { system, foreignSystem, tools, toolChoice, generation } = call;
  const view = await context.window.view(context.messages, system, tools.declarations, generation?.maxTokens, refused);
  if (view.trim) context.emit('context-trimmed', view.trim);
  const request: ModelRequest = {
    system,
    ...(foreignSystem ? { foreignSystem } : {}),
    messages: view.messages,
    tools: tools.declarations,
    toolChoice,
    grammar: context.grammar,
    generation,
    ...(output ? { output } : {}),
    // The day the chat began, for templates that print the date: the same for every request of the chat.
    ...(context.messages[0] ? { date: context.messages[0].createdAt } : {}),
  };
  return { request, reservedTokens: view.reservedTokens };
}
