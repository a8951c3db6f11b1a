// The script-tag build of tabagent/testing: a second global, `TabAgentTesting`,
// with the fake model and the call-writing helpers, for pages and tests that
// want them. Kept out of `TabAgent`, so production pages never load test code.
// A fake model made here works with TabAgent.createAgent: it is found by a
// registry-wide symbol, not by identity.
export { fakeModel } from './testing/fake-model.js';
export { toolCallsText, toolCallText } from './testing/calls.js';
