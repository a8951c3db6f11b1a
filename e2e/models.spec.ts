// listModels in a real browser, on Chromium's software WebGPU adapter
// (SwiftShader: no shader-f16): every prebuilt chat model, what runs here,
// what WebLLM's Cache API cache holds, sizes from manifests — without a worker.
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { expect, test } from './fixtures.js';

const chatIds = prebuiltAppConfig.model_list.filter((m) => m.model_type !== 1).map((m) => m.model_id);
const QWEN = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
const SMOL = 'SmolLM2-135M-Instruct-q0f32-MLC';

/** A tensor-cache.json as MLC writes it, with shards of these sizes. */
function manifest(shards: number[]) {
  return {
    metadata: { ParamSize: shards.length, ParamBytes: shards.reduce((a, b) => a + b, 0), BitsPerParam: 32 },
    records: shards.map((nbytes, i) => ({ dataPath: `params_shard_${i}.bin`, format: 'raw-shard', nbytes, records: [{ name: `w${i}`, shape: [nbytes / 4], dtype: 'float32', format: 'raw', nbytes, byteOffset: 0 }], md5sum: '0' })),
  };
}

test('lists every prebuilt chat model; on an adapter without shader-f16 only the f32 builds run', async ({ page }) => {
  const models = await page.evaluate(() => window.tabagent.listModels({ engines: ['webllm'] }));
  expect(models.map((m) => m.id)).toEqual(chatIds);
  expect(models).toHaveLength(161);
  const byId = new Map(models.map((m) => [m.id, m]));
  let twins = 0;
  for (const m of models) {
    expect(m.runnable, m.id).toBe(!/f16/.test(m.quantization ?? ''));
    const twin = byId.get(m.id.replace(/(q\d)f16/, '$1f32'));
    if (m.needsShaderF16 && twin) {
      twins++;
      expect([m.runnable, twin.runnable, twin.needsShaderF16], m.id).toEqual([false, true, false]);
    }
  }
  expect(twins).toBeGreaterThan(40);
  expect(byId.get('Qwen2.5-1.5B-Instruct-q4f16_1-MLC')).toEqual({
    id: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
    engine: 'webllm',
    base: 'Qwen2.5-1.5B-Instruct',
    family: 'hermes',
    parameters: 1.5e9,
    quantization: 'q4f16_1',
    contextWindow: 4096,
    vramMB: 1629.75,
    lowResource: true,
    needsShaderF16: true,
    cached: false,
    runnable: false,
  });
});

test('a model in WebLLM\'s cache is cached, with its manifest\'s size, as WebLLM itself says; no worker starts for the list', async ({ page }) => {
  test.slow(); // WebLLM's own answer loads WebLLM in a worker, twice
  const result = await page.evaluate(
    async ({ QWEN, SMOL, qwenManifest, smolManifest }) => {
      // WebLLM's layout (cacheBackend 'cache'): weights and manifest in webllm/model, the chat config in
      // webllm/config, each under the model's URL as cleanModelUrl makes it (…/resolve/main/).
      const put = async (cacheName: string, url: string, body: string) => (await caches.open(cacheName)).put(url, new Response(body));
      const qwen = `https://huggingface.co/mlc-ai/${QWEN}/resolve/main/`;
      const smol = `https://huggingface.co/mlc-ai/${SMOL}/resolve/main/`;
      await put('webllm/model', `${qwen}tensor-cache.json`, JSON.stringify(qwenManifest));
      await put('webllm/model', `${qwen}params_shard_0.bin`, 'weights');
      await put('webllm/model', `${qwen}params_shard_1.bin`, 'weights');
      await put('webllm/config', `${qwen}mlc-chat-config.json`, JSON.stringify({ conv_template: 'qwen2', context_window_size: 4096 }));
      // A download cut short: the manifest and one of two shards.
      await put('webllm/model', `${smol}tensor-cache.json`, JSON.stringify(smolManifest));
      await put('webllm/model', `${smol}params_shard_0.bin`, 'weights');

      let workers = 0;
      const RealWorker = window.Worker;
      window.Worker = class extends RealWorker {
        constructor(...args: ConstructorParameters<typeof Worker>) {
          super(...args);
          workers++;
        }
      };
      const { listModels, isModelCached } = window.tabagent;
      // What the page loaded before listing (its own chunks, whatever they are named) is not the list's doing.
      const loadedBefore = new Set(performance.getEntriesByType('resource').map((e) => e.name));
      const models = await listModels();
      const pick = (id: string) => models.filter((m) => m.id === id).map(({ cached, downloadBytes }) => ({ cached, downloadBytes }))[0];
      const listed = { qwen: pick(QWEN), smol: pick(SMOL), cachedIds: models.filter((m) => m.cached).map((m) => m.id) };
      const workersForList = workers;
      const scripts = performance.getEntriesByType('resource').map((e) => e.name).filter((name) => !loadedBefore.has(name) && /worker|webllm|web-llm|lib-/.test(name));
      // WebLLM's own hasModelInCache, in a worker, agrees.
      const webllm = { qwen: await isModelCached(QWEN), smol: await isModelCached(SMOL) };
      return { listed, workersForList, workersAfter: workers, scripts, webllm };
    },
    { QWEN, SMOL, qwenManifest: manifest([1_000_000, 234_567]), smolManifest: manifest([500, 500]) },
  );
  expect(result.listed).toEqual({ qwen: { cached: true, downloadBytes: 1_234_567 }, smol: { cached: false, downloadBytes: 1000 }, cachedIds: [QWEN] });
  expect(result.workersForList).toBe(0);
  expect(result.scripts).toEqual([]);
  expect(result.webllm).toEqual({ qwen: true, smol: false });
  expect(result.workersAfter).toBeGreaterThan(0); // the Worker wrapper does see workers
});

test('fetchSizes reads each model\'s tensor-cache.json from the network, and stops on abort', async ({ page }) => {
  const asked: string[] = [];
  // Each manifest's size is its model's name length, in MB: easy to check, and no real network.
  await page.route('https://huggingface.co/**', async (route) => {
    const url = route.request().url();
    asked.push(url);
    const name = /mlc-ai\/([^/]+)\/resolve\/main\/tensor-cache\.json$/.exec(url)?.[1];
    if (!name || name.startsWith('SmolLM2')) return route.fulfill({ status: 404, headers: { 'access-control-allow-origin': '*' }, body: 'Not found' });
    await route.fulfill({ contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify(manifest([name.length * 1e6])) });
  });
  const result = await page.evaluate(async () => {
    const { listModels } = window.tabagent;
    const models = await listModels({ engines: ['webllm'], fetchSizes: true });
    const controller = new AbortController();
    const aborted = listModels({ engines: ['webllm'], fetchSizes: true, signal: controller.signal }).catch((e: Error) => e.name);
    controller.abort();
    return { sizes: models.map((m) => [m.id, m.downloadBytes] as const), aborted: await aborted };
  });
  const weightsOf = (id: string) => prebuiltAppConfig.model_list.find((m) => m.model_id === id)!.model.split('/').pop()!;
  for (const [id, bytes] of result.sizes) {
    expect(bytes, id).toBe(id.startsWith('SmolLM2') ? undefined : weightsOf(id).length * 1e6);
  }
  expect(result.aborted).toBe('AbortError');
  // One request per set of weights (the -1k builds share theirs), each for the manifest only.
  const expected = new Set(prebuiltAppConfig.model_list.filter((m) => m.model_type !== 1).map((m) => `${m.model}/resolve/main/tensor-cache.json`));
  expect(new Set(asked)).toEqual(expected);
  expect(asked.length).toBeLessThanOrEqual(expected.size + 4);
});
