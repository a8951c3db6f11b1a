// The fake models the documents' examples (examples/) run against, in
// Node. An example's hidden part calls `useFakeScript`, which is tabagent's
// own `useFakeModel` with this thread as the page: from then on every WebLLM
// model the example asks for is that fake, as in a Playwright test. The test
// shim for `tabagent` (readme-tabagent.ts) loads it; src/readme.test.ts then
// checks that every fake was used up and closes every agent.
// e2e/readme-app/src/test-support/readme-model.ts is this module in the browser, where the
// same examples run against the packed package (e2e/readme-package.spec.ts):
// the two export the same names, and hidden parts use nothing else.
import type { Agent } from '../agent/agent.js';
import { PAGE_FAKE_KEY } from '../model/scripted-model.js';
import { useFakeModel, type FakeModel, type FakeModelOptions, type FakeOutput, type FakeRequest, type PageLike } from '../testing/index.js';

/** A fake the example ran: what `fakeModel(...)` has, its record and its check. */
export interface ReadmeFake {
  readonly requests: readonly FakeRequest[];
  assertComplete(): void | Promise<void>;
}

interface ReadmeRun {
  /** Prefixes the example's database names, so examples never see each other's chats. */
  namespace: string;
  /** Every fake of this example: those registered with useFakeScript, and those it gave createAgent itself. */
  fakes: ReadmeFake[];
  agents: Agent[];
}

let runs = 0;
const fresh = (): ReadmeRun => ({ namespace: `readme-${++runs}`, fakes: [], agents: [] });
let run = fresh();

/** This thread as useFakeModel's page: its init script runs here, at once. */
const thisThread: PageLike = {
  addInitScript: async (script, arg) => script(arg),
  evaluate: async (pageFunction, key) => pageFunction(key),
};

/**
 * From now on, every WebLLM model the example asks for (createAgent, load,
 * restart) is this fake, named after the model asked for, its script going on
 * across loads: `useFakeModel(page, outputs, options)` for this page.
 */
export function useFakeScript(outputs: readonly FakeOutput[], options: FakeModelOptions = {}): void {
  const pageFake = () => (globalThis as { [key: symbol]: { requests: FakeRequest[] } | undefined })[Symbol.for(PAGE_FAKE_KEY)];
  const before = pageFake();
  // Installed at once (the page is this thread); a script it refuses rejects, and assertComplete says so.
  const installed = useFakeModel(thisThread, outputs, options);
  installed.catch(() => undefined);
  const fake = pageFake();
  // The live record the page's fake keeps (what `requests()` resolves to), for hidden parts that read it as they go.
  run.fakes.push({ requests: fake !== before && fake ? fake.requests : [], assertComplete: async () => (await installed).assertComplete() });
}

/** A fake the example made itself and gave to `createAgent`. */
export function noteFake(fake: FakeModel): void {
  if (!run.fakes.includes(fake)) run.fakes.push(fake);
}

export function noteAgent(agent: Agent): void {
  run.agents.push(agent);
}

/** Start a fresh example (no page fake); returns what the one before left. */
export function startReadmeRun(): ReadmeRun {
  const last = run;
  run = fresh();
  delete (globalThis as { [key: symbol]: unknown })[Symbol.for(PAGE_FAKE_KEY)];
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

/**
 * A GGUF file as an `<input type="file">` gives it. Node has no CPU engine
 * (the shim stands in a fake for any GGUF), so only its magic bytes; the
 * browser's is a real model that wllama loads.
 */
export async function ggufFile(name: string): Promise<File> {
  return new File([new Uint8Array([71, 71, 85, 70])], name);
}

/** Where a server that answers `url` with a redirect sends the browser (the Location it answers with). */
export async function followRedirect(url: URL): Promise<string> {
  const location = (await fetch(url, { redirect: 'manual' })).headers.get('location');
  if (!location) throw new Error(`${url} answered with no redirect`);
  return location;
}
