// The fake engine as the worker loads it: the engine and its scripted load in
// one module, so the prebuilt worker ships it as one file (with xgrammar).
export { FakeEngine } from './fake-engine.js';
export { fakeLoad } from './fake-load.js';
