// How the family follows a config's template that differs from the table's.
// Which family writes which format is the models' own (docs/models.md); the
// table rows named here are protocol/model-table.ts.
import { describe, expect, it } from 'vitest';
import { modelEntry } from './model-table.js';
import { chooseTemplate } from './template-choice.js';

const choose = (modelId: string, config: string | undefined, family?: 'llama' | 'hermes') => chooseTemplate(modelId, modelEntry(modelId), config, family);

describe('the config’s template against the table’s', () => {
  it.each([
    // A template one family alone uses natively implies that family.
    ['Qwen3-0.6B-q4f16_1-MLC', 'qwen3_5', 'qwen3.5'],
    ['Llama-3-8B-Instruct-q4f16_1-MLC', 'llama-3_1', 'llama'],
    ['Qwen2.5-1.5B-Instruct-q4f16_1-MLC', 'ministral3', 'ministral'],
    ['Phi-3.5-mini-instruct-q4f16_1-MLC', 'phi-4', 'phi4-mini'],
    // A shared template keeps the table's family where the table runs it in that template.
    ['Qwen3.5-0.8B-q4f16_1-MLC', 'qwen2', 'hermes'],
    ['Mistral-7B-Instruct-v0.3-q4f16_1-MLC', 'mistral_default', undefined],
    ['Qwen3-0.6B-q4f16_1-MLC', 'chatml', 'hermes'],
    // Prompted Hermes goes in any template.
    ['SmolLM2-360M-Instruct-q4f16_1-MLC', 'gemma_instruction', 'hermes'],
    // Llama's calls answer in the ipython role, which llama-3 lacks: prompted Hermes.
    ['Llama-3.2-1B-Instruct-q4f16_1-MLC', 'llama-3', 'hermes'],
  ])('%s with %s runs the %s format', (modelId, config, family) => {
    const choice = choose(modelId, config);
    if (family === undefined) {
      expect(choice).toEqual({ template: config, family: modelEntry(modelId).family });
      return;
    }
    expect(choice).toMatchObject({ template: config, family });
    expect(choice.mismatch).toMatchObject({ config, known: true, used: { template: config, family } });
  });

  it('the family the app names wins', () => {
    expect(choose('Qwen3-0.6B-q4f16_1-MLC', 'qwen3_5', 'hermes')).toMatchObject({ template: 'qwen3_5', family: 'hermes', mismatch: { used: { family: 'hermes' } } });
  });

  it('the same template, or a config that could not be read, leaves the table’s choice and reports nothing', () => {
    expect(choose('Qwen3-0.6B-q4f16_1-MLC', 'qwen2')).toEqual({ template: 'qwen2', family: 'qwen3' });
    expect(choose('Qwen3-0.6B-q4f16_1-MLC', undefined)).toEqual({ template: 'qwen2', family: 'qwen3' });
  });

  it('a template tabagent does not know keeps the table’s template and family, reported as unknown', () => {
    const choice = choose('Llama-3.2-1B-Instruct-q4f16_1-MLC', 'llama-3_2');
    expect(choice).toMatchObject({ template: 'llama-3_1', family: 'llama' });
    expect(choice.mismatch).toMatchObject({ config: 'llama-3_2', known: false, table: { template: 'llama-3_1', family: 'llama' }, used: { template: 'llama-3_1', family: 'llama' } });
    expect(choice.mismatch!.message).toContain('"llama-3_2", which tabagent does not know');
    // Also for a model the table does not know: nothing tells its format.
    expect(choose('my-model', 'vicuna_v1.1').mismatch).toMatchObject({ known: false, used: { template: 'chatml', family: 'hermes' } });
  });
});
