// The line under an answer: model calls, tool calls, tokens, time, speed.
// Made from the stored messages (each answer keeps its tokens and model time,
// each tool result its status and duration), so it reads the same live and
// after a reload.
import type { ChatMessage } from '../../src/index.js';
import { formatDuration } from './format.js';

/** Results whose handler (or the page) ran: denied, blocked, cancelled and unreadable calls never did. */
const RAN = new Set(['ok', 'error', 'timeout', undefined]);

export function turnStats(messages: readonly ChatMessage[]): string {
  let modelCalls = 0;
  let toolCalls = 0;
  let tokens = 0;
  let modelMs = 0;
  let toolMs = 0;
  for (const message of messages) {
    if (message.role === 'assistant') {
      modelCalls++;
      tokens += message.tokens ?? 0;
      modelMs += message.modelMs ?? 0;
    } else if (message.role === 'tool') {
      for (const result of message.results) {
        if (RAN.has(result.status)) toolCalls++;
        toolMs += result.durationMs ?? 0;
      }
    }
  }
  if (modelCalls === 0) return '';
  return [
    plural(modelCalls, 'model call'),
    toolCalls ? plural(toolCalls, 'tool call') : '',
    tokens ? plural(tokens, 'token') : '',
    modelMs + toolMs > 0 ? formatDuration(modelMs + toolMs) : '',
    // Model time includes reading the prompt, so this is a little under the decode speed.
    tokens && modelMs > 0 ? `${(tokens / (modelMs / 1000)).toFixed(1)} tokens/s` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
