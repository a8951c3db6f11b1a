// What a WebLLM model id says about its model: parameter count and quantization.
import { modelEntry } from '../protocol/model-table.js';

/**
 * A size in the model's name: `1.5B`, `135M`, `7b`, `1_6b` (stablelm's 1.6B),
 * `E2B` (Gemma's "effective" 2B), `8x7B` (eight experts of 7B). Never `4k`
 * (Phi-3's context) or `BF16`.
 */
const SIZE = /^(?:(\d+)x)?E?(\d+(?:[._]\d+)?)([BM])$/i;

/** The parameter count the id names (`Qwen2.5-1.5B-Instruct-…` → 1.5e9), or undefined when it names none. */
export function parametersOf(modelId: string): number | undefined {
  for (const token of modelEntry(modelId).base.split('-')) {
    const match = SIZE.exec(token);
    if (!match) continue;
    const [, experts = '1', size = '', unit = ''] = match;
    return Math.round(Number(experts) * Number(size.replace('_', '.')) * (unit.toUpperCase() === 'B' ? 1e9 : 1e6));
  }
  return undefined;
}

/** MLC's quantization code in the id (`q4f16_1`, `q0f32`, `q3f16_1`), or undefined. */
export function quantizationOf(modelId: string): string | undefined {
  return /-(q\d+f\d+(?:_\d+)?)(?=-|$)/.exec(modelId)?.[1];
}
