// Which of tabagent's call formats a chat template teaches, read from the
// template's own text: the markup it writes calls and results in. Used for a
// GGUF model that is not in the curated list and whose app names no family.
import type { ModelFamily } from '../shared/tool-protocol.js';

/** `text` holds `a`, and `b` after it. Found with indexOf: a template is a file's (up to 1 MiB), and a regex's `[\s\S]*` between them backtracked in quadratic time on a template of repeated `a`. */
const after = (a: string, b: string) => (text: string) => {
  const at = text.indexOf(a);
  return at >= 0 && text.includes(b, at + a.length);
};
const has = (...markers: string[]) => (text: string) => markers.some((marker) => text.includes(marker));

/** First match wins, so the narrow markers come first. */
const MARKERS: Array<[(template: string) => boolean, ModelFamily]> = [
  [after('<function=', '<parameter='), 'qwen3.5'],
  [has('<|tool_call>'), 'gemma4'],
  [has('<|tool_call|>', '<|tool|>'), 'phi4-mini'],
  [(t) => after('[TOOL_CALLS]', '[ARGS]')(t) || has('[SYSTEM_PROMPT]')(t), 'ministral'],
  [has('[TOOL_CALLS]'), 'mistral'],
  [has('<|python_tag|>', '"parameters": dictionary of argument name'), 'llama'],
  [(t) => after('<tool_call>', '<think>')(t) || after('<think>', '<tool_call>')(t), 'qwen3'],
  [has('<tool_call>'), 'hermes'],
];

/** The family whose calls the template writes, or undefined when it shows no call format tabagent reads. */
export function templateFamily(template: string): ModelFamily | undefined {
  return MARKERS.find(([marks]) => marks(template))?.[1];
}
