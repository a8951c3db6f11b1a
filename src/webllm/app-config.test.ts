// WebLLMAppConfig is tabagent's own declaration of WebLLM's AppConfig shape,
// so the public types never import WebLLM's: a WebLLM AppConfig must fit it
// (the typecheck checks the assignment; the test only makes it run).
import { prebuiltAppConfig, type AppConfig, type ModelRecord } from '@mlc-ai/web-llm';
import { expect, test } from 'vitest';
import type { WebLLMAppConfig, WebLLMModelRecord } from './app-config.js';

test("WebLLM's own AppConfig and ModelRecord fit tabagent's declarations of them", () => {
  const webllm: AppConfig = { ...prebuiltAppConfig, cacheBackend: 'indexeddb' };
  const config: WebLLMAppConfig = webllm;
  const first: ModelRecord = prebuiltAppConfig.model_list[0]!;
  const record: WebLLMModelRecord = first;
  expect(config.model_list.length).toBeGreaterThan(0);
  expect(record.model_id).toBe(first.model_id);
});
