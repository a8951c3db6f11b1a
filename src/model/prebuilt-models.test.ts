// The generated model list is WebLLM's: this test fails when the installed
// WebLLM's prebuiltAppConfig changes and src/model/prebuilt-models.ts was not
// generated anew (`node scripts/prebuilt-models.mjs`, or `UPDATE_PREBUILT_MODELS=1
// npx vitest run src/model/prebuilt-models.test.ts`: this run still imported the
// old file, so the tests below pass from the next run). It also checks that
// listModels reads every record back as WebLLM has it.
import { readFile, writeFile } from 'node:fs/promises';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { installedWebLLM, MODULE_PATH, prebuiltModelsSource } from '../../scripts/prebuilt-models.mjs';
import { modelEntry } from '../protocol/model-table.js';
import { listModels } from './list-models.js';
import { parametersOf, quantizationOf } from './model-id.js';

/** Chat models: everything but the embedding models (model_type 1), as src/conformance has them. */
const chatModels = prebuiltAppConfig.model_list.filter((m) => m.model_type !== 1);

describe('the prebuilt model list', () => {
  it('src/model/prebuilt-models.ts is generated from the installed WebLLM', async () => {
    const { modelList, version } = await installedWebLLM();
    const source = prebuiltModelsSource(modelList, version);
    if (process.env.UPDATE_PREBUILT_MODELS) await writeFile(MODULE_PATH, source);
    expect(await readFile(MODULE_PATH, 'utf8').catch(() => ''), 'src/model/prebuilt-models.ts is stale: run node scripts/prebuilt-models.mjs').toBe(source);
  });

  it(`lists all ${chatModels.length} chat models with their records' facts, in WebLLM's order`, async () => {
    const models = await listModels({ engines: ['webllm'], caches: null, gpu: false });
    expect(models.map((m) => m.id)).toEqual(chatModels.map((m) => m.model_id));
    expect(models).toHaveLength(161);
    models.forEach((model, i) => {
      const record = chatModels[i]!;
      expect(model).toEqual({
        id: record.model_id,
        engine: 'webllm',
        base: modelEntry(record.model_id).base,
        family: modelEntry(record.model_id).family,
        parameters: parametersOf(record.model_id),
        quantization: quantizationOf(record.model_id),
        contextWindow: record.overrides?.context_window_size ?? 4096,
        vramMB: record.vram_required_MB,
        lowResource: record.low_resource_required ?? false,
        needsShaderF16: (record.required_features ?? []).includes('shader-f16') || /f16/.test(quantizationOf(record.model_id) ?? ''),
        downloadBytes: undefined,
        cached: false,
        runnable: undefined,
      });
    });
  });

  it("asks for each model's manifest where WebLLM fetches it: tensor-cache.json under the record's model URL, resolve/main", async () => {
    const asked: string[] = [];
    await listModels({ engines: ['webllm'], caches: null, gpu: false, fetchSizes: true, fetch: async (url) => (asked.push(url), { ok: false, json: async () => null }) });
    // The -1k builds share their weights with the full-window build: one manifest for both.
    const expected = [...new Set(chatModels.map((m) => `${m.model}/resolve/main/tensor-cache.json`))];
    expect(asked.sort()).toEqual(expected.sort());
    expect(expected.every((url) => url.startsWith('https://huggingface.co/mlc-ai/'))).toBe(true);
  });

  it('every f16 build needs shader-f16, also the ones whose WebLLM record does not say so', () => {
    const f16 = chatModels.filter((m) => /f16/.test(quantizationOf(m.model_id) ?? ''));
    const marked = f16.filter((m) => m.required_features?.includes('shader-f16'));
    expect(f16.length).toBeGreaterThan(marked.length); // 86 f16 builds, 30 marked in 0.2.86
    expect(chatModels.filter((m) => m.required_features?.includes('shader-f16') && !f16.includes(m))).toEqual([]);
  });
});

describe('what a model id says', () => {
  it('reads each form of parameter count that occurs', () => {
    expect(parametersOf('Qwen2.5-1.5B-Instruct-q4f16_1-MLC')).toBe(1.5e9);
    expect(parametersOf('Qwen2.5-0.5B-Instruct-q0f32-MLC')).toBe(5e8);
    expect(parametersOf('Llama-3.1-70B-Instruct-q3f16_1-MLC')).toBe(70e9);
    expect(parametersOf('SmolLM2-135M-Instruct-q0f16-MLC')).toBe(135e6);
    expect(parametersOf('Llama-2-13b-chat-hf-q4f16_1-MLC')).toBe(13e9); // lower-case b
    expect(parametersOf('stablelm-2-zephyr-1_6b-q4f16_1-MLC-1k')).toBe(1.6e9); // _ for the point
    expect(parametersOf('gemma-4-E2B-it-q4f16_1-MLC')).toBe(2e9); // Gemma's "effective" size
    expect(parametersOf('TinyLlama-1.1B-Chat-v1.0-q4f32_1-MLC')).toBe(1.1e9);
    expect(parametersOf('Mixtral-8x7B-Instruct-v0.1-q4f16_1-MLC')).toBe(56e9); // experts × size (not in 0.2.86)
  });

  it('reads no parameter count from ids that name none, nor from a context size, a version or a date', () => {
    for (const id of ['Phi-3-mini-4k-instruct-q4f16_1-MLC-1k', 'Phi-3.5-mini-instruct-q4f16_1-MLC', 'Phi-4-mini-instruct-q4f32_1-MLC', 'phi-2-q4f16_1-MLC', 'phi-1_5-q4f32_1-MLC-1k']) {
      expect(parametersOf(id), id).toBeUndefined();
    }
    expect(parametersOf('OLMo-2-1124-7B-Instruct-q4f16_1-MLC')).toBe(7e9);
    expect(parametersOf('Ministral-3-3B-Instruct-2512-BF16-q4f16_1-MLC')).toBe(3e9);
  });

  it('gives every prebuilt id its parameter count', () => {
    // By base model: the count its name gives, or null when it gives none.
    const expected: Record<string, number | null> = {
      'Llama-3.2-1B-Instruct': 1e9, 'Llama-3.2-3B-Instruct': 3e9, 'Llama-3.1-8B-Instruct': 8e9, 'Llama-3.1-70B-Instruct': 70e9,
      'Llama-3-8B-Instruct': 8e9, 'Llama-3-70B-Instruct': 70e9, 'Llama-2-7b-chat-hf': 7e9, 'Llama-2-13b-chat-hf': 13e9,
      'DeepSeek-R1-Distill-Qwen-7B': 7e9, 'DeepSeek-R1-Distill-Llama-8B': 8e9,
      'Hermes-2-Theta-Llama-3-8B': 8e9, 'Hermes-2-Pro-Llama-3-8B': 8e9, 'Hermes-3-Llama-3.2-3B': 3e9, 'Hermes-3-Llama-3.1-8B': 8e9,
      'Hermes-2-Pro-Mistral-7B': 7e9, 'OpenHermes-2.5-Mistral-7B': 7e9, 'NeuralHermes-2.5-Mistral-7B': 7e9, 'WizardMath-7B-V1.1': 7e9,
      'Mistral-7B-Instruct-v0.3': 7e9, 'Mistral-7B-Instruct-v0.2': 7e9,
      'Phi-3.5-mini-instruct': null, 'Phi-3.5-vision-instruct': null, 'Phi-4-mini-instruct': null, 'Phi-3-mini-4k-instruct': null, 'phi-2': null, 'phi-1_5': null,
      'SmolLM2-1.7B-Instruct': 1.7e9, 'SmolLM2-360M-Instruct': 360e6, 'SmolLM2-135M-Instruct': 135e6,
      'gemma-4-E2B-it': 2e9, 'gemma-2-2b-it': 2e9, 'gemma-2-9b-it': 9e9, 'gemma-2-2b-jpn-it': 2e9, 'gemma3-1b-it': 1e9, 'gemma-2b-it': 2e9,
      'OLMo-2-1124-7B-Instruct': 7e9, 'OLMo-2-0425-1B-Instruct': 1e9,
      'Qwen3-0.6B': 0.6e9, 'Qwen3-1.7B': 1.7e9, 'Qwen3-4B': 4e9, 'Qwen3-8B': 8e9,
      'Qwen3.5-0.8B': 0.8e9, 'Qwen3.5-2B': 2e9, 'Qwen3.5-4B': 4e9, 'Qwen3.5-9B': 9e9,
      'Qwen2.5-0.5B-Instruct': 0.5e9, 'Qwen2.5-1.5B-Instruct': 1.5e9, 'Qwen2.5-3B-Instruct': 3e9, 'Qwen2.5-7B-Instruct': 7e9,
      'Qwen2.5-Coder-0.5B-Instruct': 0.5e9, 'Qwen2.5-Coder-1.5B-Instruct': 1.5e9, 'Qwen2.5-Coder-3B-Instruct': 3e9, 'Qwen2.5-Coder-7B-Instruct': 7e9,
      'Qwen2.5-Math-1.5B-Instruct': 1.5e9, 'Qwen2-0.5B-Instruct': 0.5e9, 'Qwen2-1.5B-Instruct': 1.5e9, 'Qwen2-7B-Instruct': 7e9,
      'Qwen2-Math-1.5B-Instruct': 1.5e9, 'Qwen2-Math-7B-Instruct': 7e9,
      'stablelm-2-zephyr-1_6b': 1.6e9, 'RedPajama-INCITE-Chat-3B-v1': 3e9, 'TinyLlama-1.1B-Chat-v1.0': 1.1e9, 'TinyLlama-1.1B-Chat-v0.4': 1.1e9,
      'Ministral-3-3B-Base-2512': 3e9, 'Ministral-3-3B-Reasoning-2512': 3e9, 'Ministral-3-3B-Instruct-2512-BF16': 3e9,
    };
    const wrong = chatModels
      .map((m) => ({ id: m.model_id, base: modelEntry(m.model_id).base, got: parametersOf(m.model_id) ?? null }))
      .filter(({ base, got }) => !(base in expected) || expected[base] !== got);
    expect(wrong).toEqual([]);
  });

  it('reads the quantization', () => {
    expect(quantizationOf('Qwen2.5-1.5B-Instruct-q4f16_1-MLC')).toBe('q4f16_1');
    expect(quantizationOf('Llama-3.1-8B-Instruct-q4f32_1-MLC-1k')).toBe('q4f32_1');
    expect(quantizationOf('SmolLM2-135M-Instruct-q0f16-MLC')).toBe('q0f16');
    expect(quantizationOf('Llama-3-70B-Instruct-q3f16_1-MLC')).toBe('q3f16_1');
    expect(quantizationOf('Ministral-3-3B-Instruct-2512-BF16-q4f32_1-MLC')).toBe('q4f32_1');
    expect(quantizationOf('my-model')).toBeUndefined();
    expect(chatModels.filter((m) => quantizationOf(m.model_id) === undefined)).toEqual([]);
  });
});
