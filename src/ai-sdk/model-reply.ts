// A tabagent model turn in the AI SDK's terms: content parts, finish reason
// and usage. The turn's raw output rides on its last part, for the next step
// (prompt.ts).
import type { LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4ToolCall, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { ModelResponse, ModelUsage } from '../shared/model.js';
import type { ParsedCall } from '../shared/tool-protocol.js';
import type { AnswerTool } from './model-request.js';
import { rawMetadata } from './prompt.js';

/** What the turn says, for the AI SDK: its visible text (or the JSON answer), reasoning and calls. */
export interface ReplyParts {
  reasoning: string;
  text: string;
  calls: LanguageModelV4ToolCall[];
  /** The JSON answer came as a call (see AnswerTool): its text is not what the model wrote, so no raw goes with it. */
  answered: boolean;
  finishReason: LanguageModelV4FinishReason;
  usage: LanguageModelV4Usage;
}

/** `idOf`: the AI SDK's id for the call at that place in the response's calls. */
export function replyParts(response: ModelResponse, answer: AnswerTool | undefined, idOf: (call: number) => string): ReplyParts {
  const answers = answer ? response.calls.filter((c) => c.name === answer.name) : [];
  const others = answer ? response.calls.filter((c) => c.name !== answer.name) : response.calls;
  // A real call and the answer in one turn: the tools run first, and the model answers after their results.
  const given = others.length === 0 ? answers.find((c) => c.arguments !== undefined) : undefined;
  const text = given ? JSON.stringify(answer!.wrapped ? given.arguments!.value : given.arguments) : response.text;
  const calls = others.map((call) => toolCall(call, idOf(response.calls.indexOf(call))));
  // Calls the model finished run, whatever cut the reply after them (the AI SDK runs tools only on
  // 'tool-calls' or 'stop'), as in tabagent's own loop; a call cut off itself is an invalid input (toolCall).
  // A JSON answer given whole is the reply's end.
  const unified = calls.length ? 'tool-calls' : given ? 'stop' : response.finishReason === 'stop' || response.finishReason === 'length' ? response.finishReason : 'other';
  return { reasoning: response.reasoning, text, calls, answered: given !== undefined, finishReason: { unified, raw: response.finishReason }, usage: usageOf(response.usage) };
}

/** The parts of a whole turn (doGenerate), the raw output on the last. */
export function contentOf(parts: ReplyParts, raw: string): LanguageModelV4Content[] {
  const content: LanguageModelV4Content[] = [];
  if (parts.reasoning) content.push({ type: 'reasoning', text: parts.reasoning });
  if (parts.text || (!parts.answered && parts.calls.length === 0)) content.push({ type: 'text', text: parts.text });
  content.push(...parts.calls);
  if (!parts.answered) content.at(-1)!.providerMetadata = rawMetadata(raw);
  return content;
}

/**
 * A call the model made. One the parser could not read (cut off by the token
 * limit, or malformed without a grammar) keeps what the parser said of it as
 * its input, which is not JSON: the AI SDK then reports an invalid input to
 * the model (a tool error), as tabagent tells the model of such a call, and
 * never runs it with arguments guessed.
 */
function toolCall(call: ParsedCall, toolCallId: string): LanguageModelV4ToolCall {
  const input = call.arguments !== undefined ? JSON.stringify(call.arguments) : `(${call.problem.detail})`;
  return { type: 'tool-call', toolCallId, toolName: call.name, input };
}

/**
 * tabagent counts the prompt tokens the model read (`promptTokens`) and,
 * where the engine says (wllama), those its KV cache held (`cachedTokens`).
 * WebLLM counts only what it read, so there the total is that.
 */
function usageOf(usage: ModelUsage): LanguageModelV4Usage {
  const cached = usage.cachedTokens;
  return {
    inputTokens: { total: usage.promptTokens + (cached ?? 0), noCache: usage.promptTokens, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: usage.completionTokens, text: undefined, reasoning: undefined },
    raw: { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, ...(cached !== undefined ? { cachedTokens: cached } : {}) },
  };
}
