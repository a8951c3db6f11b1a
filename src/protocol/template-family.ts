// Which of tabagent's call formats a chat template teaches, read from the
// template's own text: the markup it writes calls and results in. Used for a
// GGUF model that is not in the curated list and whose app names no family.
import type { ModelFamily } from '../shared/tool-protocol.js';

/** First match wins, so the narrow markers come first. */
const MARKERS: Array<[RegExp, ModelFamily]> = [
  [/<function=[\s\S]*<parameter=/, 'qwen3.5'],
  [/<\|tool_call>/, 'gemma4'],
  [/<\|tool_call\|>|<\|tool\|>/, 'phi4-mini'],
  [/\[TOOL_CALLS\][\s\S]*\[ARGS\]|\[SYSTEM_PROMPT\]/, 'ministral'],
  [/\[TOOL_CALLS\]/, 'mistral'],
  [/<\|python_tag\|>|"parameters": dictionary of argument name/, 'llama'],
  [/<tool_call>[\s\S]*<think>|<think>[\s\S]*<tool_call>/, 'qwen3'],
  [/<tool_call>/, 'hermes'],
];

/** The family whose calls the template writes, or undefined when it shows no call format tabagent reads. */
export function templateFamily(template: string): ModelFamily | undefined {
  return MARKERS.find(([marker]) => marker.test(template))?.[1];
}
