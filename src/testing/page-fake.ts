// The seam for `useFakeModel` (./playwright.ts): a Playwright test leaves a
// fake model's spec on the page, as plain data under a registry-wide symbol,
// and every WebLLM model the page then asks for becomes that fake. Without
// the global (every page outside such a test) nothing here does anything.
import type { FakeRequest } from '../rpc/worker-protocol.js';
import type { FakeSpec } from './fake-model.js';

export const PAGE_FAKE_KEY = 'tabagent.useFakeModel';

/** What the test leaves on the page: the fake's spec (a model id only if the test gave one), and every request it has received. */
export interface PageFake extends Omit<FakeSpec, 'modelId' | 'respond' | 'record' | 'firstTurn'> {
  modelId?: string;
  requests: FakeRequest[];
}

/** The fake a test put on this page, standing in for the WebLLM model `modelId` (and named after it, so it speaks its format). */
export function pageFakeSpec(modelId: unknown): FakeSpec | undefined {
  const fake = (globalThis as { [key: symbol]: PageFake | undefined })[Symbol.for(PAGE_FAKE_KEY)];
  if (!fake || typeof modelId !== 'string' || !modelId.trim()) return undefined;
  const { requests, ...spec } = fake;
  return { ...spec, modelId: spec.modelId ?? modelId, record: (request) => void requests.push(request), firstTurn: () => requests.length };
}
