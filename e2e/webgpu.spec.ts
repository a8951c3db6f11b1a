// Real WebLLM paths that need no weights, on Chromium's software WebGPU adapter.
import { expect, test } from './fixtures.js';

test('an f16 model on an adapter without shader-f16 names the f32 model to use', async ({ page }) => {
  const error = await page.evaluate(async () => {
    const e = await window.tabagent.createAgent({ model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' }).then((agent) => agent.ready).catch((x) => x);
    return { name: e.name, fallback: e.fallbackModelId, typed: window.tabagent.isShaderF16UnsupportedError(e) };
  });
  expect(error).toEqual({ name: 'ShaderF16UnsupportedError', fallback: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', typed: true });
});

test('in a shared worker too: WebLLM reaches the adapter there, and an f16 model names the f32 one', async ({ page }) => {
  const error = await page.evaluate(async () => {
    const e = await window.tabagent.createAgent({ model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', shared: true, storage: false }).then((agent) => agent.ready).catch((x) => x);
    return { name: e.name, fallback: e.fallbackModelId };
  });
  // Without WebGPU in the shared worker this would be WebGPUUnavailableError.
  expect(error).toEqual({ name: 'ShaderF16UnsupportedError', fallback: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' });
});

test('a model that cannot be downloaded fails with a retryable ModelLoadError', async ({ page }) => {
  const error = await page.evaluate(async () => {
    const e = await window.tabagent.createAgent({ model: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' }).then((agent) => agent.ready).catch((x) => x);
    return { name: e.name, retryable: e.retryable, modelId: e.modelId, typed: window.tabagent.isModelLoadError(e) };
  });
  expect(error).toEqual({ name: 'ModelLoadError', retryable: true, modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', typed: true });
});

test('an unknown model id is a ModelLoadError that is not retryable', async ({ page }) => {
  const error = await page.evaluate(async () => {
    const e = await window.tabagent.createAgent({ model: 'No-Such-Model-q4f32_1-MLC' }).then((agent) => agent.ready).catch((x) => x);
    return { name: e.name, retryable: e.retryable, message: e.message };
  });
  expect(error).toMatchObject({ name: 'ModelLoadError', retryable: false });
  expect(error.message).toMatch(/not a WebLLM prebuilt model id/);
});

test('the model cache can be asked about and cleared without an agent', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { isModelCached, deleteCachedModel } = window.tabagent;
    const before = await isModelCached('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    await deleteCachedModel('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    const unknown = await isModelCached('No-Such-Model-q4f32_1-MLC').catch((e) => e.name);
    return { before, unknown };
  });
  expect(result).toEqual({ before: false, unknown: 'ModelLoadError' });
});

test('W6: a model whose files are corrupt fails with the reason, retryably, and its cache can be cleared', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const { createAgent, deleteCachedModel, isModelLoadError } = window.tabagent;
    const base = `${location.origin}/local-model/`;
    const model = { id: 'Local-Test-q4f32_1-MLC', appConfig: { model_list: [{ model: base, model_id: 'Local-Test-q4f32_1-MLC', model_lib: `${base}model.wasm` }] } };
    const error = await createAgent({ model }).then((agent) => agent.ready).catch((e) => e);
    await deleteCachedModel(model);
    return { typed: isModelLoadError(error), retryable: error.retryable, reason: error.reason };
  });
  expect(result.typed).toBe(true);
  expect(result.retryable).toBe(true);
  expect(result.reason).toMatch(/WebAssembly/);
});
