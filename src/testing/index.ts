// tabagent/testing: the fake model and helpers, for tests of apps built on tabagent.
export { fakeModel, type FakeModel } from './fake-model.js';
export { toolCallsText, toolCallText } from './calls.js';
export type { FakeFault, FakeModelOptions, FakeOutput, FakeRequest, FakeScript } from './types.js';
export { useFakeModel, type PageFakeModel, type PageFakeOptions, type PageLike } from './playwright.js';
