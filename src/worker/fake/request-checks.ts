// The checks WebLLM 0.2.86 makes on a chat completion request before it
// touches the model (postInitAndCheckFields and
// postInitAndCheckGenerationConfigValues in its lib/index.js), for the fields
// tabagent sends. Same error names, same messages.
import type { EngineRequest } from '../engine.js';
import { webllmError } from './webllm-error.js';

export function checkRequest(request: EngineRequest): void {
  const { messages } = request;
  if (messages.length === 0) throw new TypeError("Cannot read properties of undefined (reading 'role')");
  messages.forEach((message, index) => {
    if (message.role === 'system' && index !== 0) throw webllmError('SystemMessageOrderError', 'System prompt should always be the first message in `messages`.');
    if (message.role === 'assistant' && typeof message.content !== 'string') throw webllmError('ContentTypeError', "assistant's message should have string content.");
  });
  const last = messages.at(-1)!;
  if (last.role !== 'user' && last.role !== 'tool') throw webllmError('MessageOrderError', 'Last message should be from either `user` or `tool`.');
  if (request.seed !== undefined && request.seed !== null && !Number.isInteger(request.seed)) throw webllmError('SeedTypeError', '`seed` should be an integer, but got ' + request.seed);
  const format = request.response_format as Record<string, unknown> | undefined;
  if (format) {
    const has = (key: string) => format[key] !== undefined && format[key] !== null;
    if (has('grammar') !== (format.type === 'grammar')) {
      throw webllmError('InvalidResponseFormatGrammarError', 'When ResponseFormat.type is `grammar`, ResponseFormat.grammar needs to be specified.\nWhen ResponseFormat.grammar is specified, ResponseFormat.type needs to be grammar.');
    }
    if (has('structural_tag') !== (format.type === 'structural_tag')) {
      throw webllmError('InvalidResponseFormatStructuralTagError', 'When ResponseFormat.type is `structural_tag`, ResponseFormat.structural_tag needs to be specified.\nWhen ResponseFormat.structural_tag is specified, ResponseFormat.type needs to be structural_tag.');
    }
  }
  if (request.max_tokens !== undefined && request.max_tokens !== null && !(request.max_tokens > 0)) throw webllmError('MinValueError', 'Make sure `max_tokens` > 0.');
  if (request.top_p !== undefined && request.top_p !== null && !(request.top_p > 0 && request.top_p <= 1)) throw webllmError('RangeError', 'Make sure 0 < top_p <= 1.');
  if (request.temperature !== undefined && request.temperature !== null && !(request.temperature >= 0)) throw webllmError('NonNegativeError', 'Make sure temperature >= 0.');
}
