// useFakeModel: a Playwright test gives the app in its page a scripted fake in
// place of every WebLLM model, with no change to the app. The script crosses
// into the page as data (./page-fake.ts); the fake's records come back with
// page.evaluate. Nothing here imports Playwright: any object with Page's
// `addInitScript` and `evaluate` will do.
import { FakeScriptError, InvalidOptionsError } from '../errors/index.js';
import { fakeModel } from './fake-model.js';
import { FAKE_SPEC } from '../model/scripted-model.js';
import { PAGE_FAKE_KEY, type PageFake } from '../model/scripted-model.js';
import type { FakeModelOptions, FakeOutput, FakeRequest } from './types.js';

/** The two methods of Playwright's `Page` that useFakeModel uses. */
export interface PageLike {
  addInitScript(script: (arg: Installed) => void, arg: Installed): Promise<unknown>;
  evaluate<R>(pageFunction: (key: string) => R, key: string): Promise<R>;
}

/** fakeModel's options, but for `recordRequests` (a page fake always records), and `modelId` defaults to the id the app asked for. */
export type PageFakeOptions = Omit<FakeModelOptions, 'recordRequests'>;

export interface PageFakeModel {
  /** Every request the fake received in this page, in order: what `fakeModel(...).requests` holds. */
  requests(): Promise<FakeRequest[]>;
  /** Rejects with FakeScriptError unless every scripted output was used. */
  assertComplete(): Promise<void>;
}

interface Installed {
  key: string;
  /** This call's own, so a second useFakeModel on the page does not resume the first one's script. */
  id: string;
  fake: PageFake;
}

/**
 * From the next navigation on (call it before `page.goto`), every WebLLM model
 * the page asks for — through `createAgent`, `agent.load` or `restart` — is
 * `fakeModel(outputs, options)` instead, named after the model asked for (so
 * it speaks that model's tool-call format and template). A `fakeModel` the
 * app makes itself stays as it is. The script goes on across reloads of the
 * page: it is the test's, not the page's.
 */
export async function useFakeModel(page: PageLike, outputs: readonly FakeOutput[], options: PageFakeOptions = {}): Promise<PageFakeModel> {
  if (!Array.isArray(outputs)) throw new InvalidOptionsError('outputs', 'must be a list of outputs: a script function cannot cross into the page');
  // fakeModel checks the script and the options here, in the test, as it would on the page.
  const { respond, record, firstTurn, modelId, ...spec } = fakeModel(outputs, { ...options, recordRequests: false })[FAKE_SPEC];
  const fake: PageFake = { ...spec, ...(options.modelId !== undefined ? { modelId } : {}), requests: [] };
  await page.addInitScript(install, { key: PAGE_FAKE_KEY, id: crypto.randomUUID(), fake });

  const requests = async () => {
    const found = await page.evaluate((key) => (globalThis as { [key: symbol]: PageFake | undefined })[Symbol.for(key)]?.requests ?? null, PAGE_FAKE_KEY);
    if (!found) throw new Error('This page has no fake model: call useFakeModel before page.goto.');
    return found;
  };
  return {
    requests,
    async assertComplete() {
      const used = (await requests()).length;
      if (used >= outputs.length) return;
      const hint = used === 0 ? ' Did the page ask for a WebLLM model (a fakeModel of its own stays as it is)?' : '';
      throw new FakeScriptError(`The fake model's script has ${outputs.length} outputs but only ${used} were used.${hint}`, used);
    },
  };
}

/** Runs in the page, before its own scripts, on every navigation: Playwright sends it as source, so it uses nothing from outside. */
function install({ key, id, fake }: Installed): void {
  const requests = fake.requests;
  try {
    // The top page keeps the records in sessionStorage when it goes, so the
    // script goes on after a reload (in this tab, on this origin).
    if (self === top) {
      const stored = `${key}:${id}`;
      requests.push(...(JSON.parse(sessionStorage.getItem(stored) ?? '[]') as FakeRequest[]));
      addEventListener('pagehide', () => {
        try {
          sessionStorage.setItem(stored, JSON.stringify(requests));
        } catch {
          // Over the storage quota: the next page starts the script over.
        }
      });
    }
  } catch {
    // No sessionStorage (an opaque origin): the script starts over with each page.
  }
  (globalThis as { [key: symbol]: PageFake })[Symbol.for(key)] = fake;
}
