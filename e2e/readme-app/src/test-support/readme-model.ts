// src/test-support/readme-model.ts as the README app has it: the same names,
// for the same hidden parts, on the packed package's public API. The page is
// the example's own, so `useFakeScript` is `useFakeModel` with this page as
// the page; and what Node does itself (read a redirect, have a GGUF at hand)
// comes from the page's server and from the spec.
import { useFakeModel, type FakeRequest, type PageLike } from 'tabagent/testing';
import type * as InNode from '../../../../src/test-support/readme-model.js';

const fakes: InNode.ReadmeFake[] = [];

/** This page as useFakeModel's: its init script runs here, at once. */
const thisPage: PageLike = {
  addInitScript: async (script, arg) => script(arg),
  evaluate: async (pageFunction, key) => pageFunction(key),
};

export const useFakeScript: typeof InNode.useFakeScript = (outputs, options = {}) => {
  // The key useFakeModel installs its page fake under (src/model/scripted-model.ts reads it).
  const pageFake = () => (globalThis as { [key: symbol]: { requests: FakeRequest[] } | undefined })[Symbol.for('tabagent.useFakeModel')];
  const before = pageFake();
  const installed = useFakeModel(thisPage, outputs, options);
  installed.catch(() => undefined);
  const fake = pageFake();
  fakes.push({ requests: fake !== before && fake ? fake.requests : [], assertComplete: async () => (await installed).assertComplete() });
};

export const readmeRun = (): { fakes: readonly InNode.ReadmeFake[] } => ({ fakes });

export const check: typeof InNode.check = (condition, message) => {
  if (!condition) throw new Error(`README example check failed: ${message}`);
};

/** The tests' tiny GGUF (scripts/tiny-gguf.mjs), which scripts/readme-app.mjs puts beside the app: a real model for wllama. */
export const ggufFile: typeof InNode.ggufFile = async (name) => {
  const response = await fetch(new URL('models/tiny-qwen3.gguf', document.baseURI));
  if (!response.ok) throw new Error(`The app has no tiny GGUF (${response.status})`);
  return new File([await response.blob()], name);
};

/** A page cannot read a cross-origin redirect (fetch makes it opaque): the spec reads it from Node (page.exposeFunction). */
export const followRedirect: typeof InNode.followRedirect = async (url) => {
  const read = (globalThis as { readmeFollowRedirect?: (url: string) => Promise<string> }).readmeFollowRedirect;
  if (!read) throw new Error('followRedirect needs e2e/readme-package.spec.ts, which gives the page readmeFollowRedirect');
  return read(url.href);
};
