// The seam between tabagent/testing, which builds scripted models, and the
// model layer, which loads them: the model layer finds a script here and never
// imports the testing code.
// - A `fakeModel(...)` carries its spec under a registry-wide symbol.
// - A Playwright test (`useFakeModel`) leaves a spec on the page as plain
//   data, and every WebLLM model the page then asks for becomes that fake.
//   Without the global (every page outside such a test) nothing here acts.
import type { FakeModelSpec, FakeOutput, FakeRequest } from '../rpc/worker-protocol.js';

export const FAKE_SPEC = Symbol.for('tabagent.fakeModel');
export const PAGE_FAKE_KEY = 'tabagent.useFakeModel';

/** The plain-data part of the worker's spec, plus what stays on the page. */
export interface FakeSpec extends Omit<FakeModelSpec, 'kind' | 'recordRequests' | 'firstTurn'> {
  /** A function script (called from the worker); list scripts travel as `outputs`. */
  respond?: (request: FakeRequest) => Promise<FakeOutput>;
  /** Where the worker's record of each request goes; none when records are off. */
  record?: (request: FakeRequest) => void;
  /** The turn a restarted worker resumes the script at (known when requests are recorded). */
  firstTurn(): number;
}

/** A scripted model, as `fakeModel(...)` makes one. */
export interface ScriptedModel {
  readonly [FAKE_SPEC]: FakeSpec;
}

/** What a test leaves on the page: the fake's spec (a model id only if the test gave one), and every request it has received. */
export interface PageFake extends Omit<FakeSpec, 'modelId' | 'respond' | 'record' | 'firstTurn'> {
  modelId?: string;
  requests: FakeRequest[];
}

/** The script for `model`: its own (a `fakeModel(...)`), or the one a Playwright test put on the page for every WebLLM model id. */
export function scriptFor(model: unknown): FakeSpec | undefined {
  if (typeof model === 'object' && model !== null && FAKE_SPEC in model) return (model as ScriptedModel)[FAKE_SPEC];
  return pageFakeSpec(typeof model === 'object' && model !== null ? (model as { id?: unknown }).id : model);
}

/** The fake a test put on this page, standing in for the WebLLM model `modelId` (and named after it, so it speaks its format). */
function pageFakeSpec(modelId: unknown): FakeSpec | undefined {
  const fake = (globalThis as { [key: symbol]: PageFake | undefined })[Symbol.for(PAGE_FAKE_KEY)];
  if (!fake || typeof modelId !== 'string' || !modelId.trim()) return undefined;
  const { requests, ...spec } = fake;
  return { ...spec, modelId: spec.modelId ?? modelId, record: (request) => void requests.push(request), firstTurn: () => requests.length };
}
