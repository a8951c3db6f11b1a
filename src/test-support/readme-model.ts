// The fake models README examples (examples/readme/*.ts) run against. An
// example's hidden part registers the script its `createAgent` gets; the test
// shim for `tabagent` (readme-tabagent.ts) takes it; src/readme.test.ts then
// checks that every fake was used up and closes every agent.
import type { Agent } from '../agent/agent.js';
import { fakeModel, type FakeModel } from '../testing/fake-model.js';
import type { FakeModelOptions, FakeScript } from '../testing/types.js';

interface Registered {
  script: FakeScript;
  options: FakeModelOptions;
}

interface ReadmeRun {
  /** Prefixes the example's database names, so examples never see each other's chats. */
  namespace: string;
  /** Scripts registered and not yet taken by a `createAgent`. */
  scripts: Registered[];
  /** Every fake an agent of this example ran, in order. */
  fakes: FakeModel[];
  agents: Agent[];
}

let runs = 0;
const fresh = (): ReadmeRun => ({ namespace: `readme-${++runs}`, scripts: [], fakes: [], agents: [] });
let run = fresh();

/**
 * The script the example's next `createAgent` with a WebLLM model runs on.
 * The fake is that model (its family and template) unless `options.modelId`
 * says otherwise.
 */
export function useFakeScript(script: FakeScript, options: FakeModelOptions = {}): void {
  run.scripts.push({ script, options });
}

/** The fake for a `createAgent` given a WebLLM model id: the next registered script. */
export function nextFake(modelId: string): FakeModel {
  const registered = run.scripts.shift();
  if (!registered) throw new Error(`createAgent({ model: ${JSON.stringify(modelId)} }) in a README example, but no fake script is registered: call useFakeScript(...) in its hidden part first`);
  const fake = fakeModel(registered.script, { modelId, ...registered.options });
  run.fakes.push(fake);
  return fake;
}

/** A fake the example made itself and gave to `createAgent`. */
export function noteFake(fake: FakeModel): void {
  if (!run.fakes.includes(fake)) run.fakes.push(fake);
}

export function noteAgent(agent: Agent): void {
  run.agents.push(agent);
}

/** Start a fresh example; returns what the one before left. */
export function startReadmeRun(): ReadmeRun {
  const last = run;
  run = fresh();
  return last;
}

/** What the running example has done so far. */
export function readmeRun(): Readonly<ReadmeRun> {
  return run;
}

/** An assertion for an example's hidden part. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`README example check failed: ${message}`);
}
