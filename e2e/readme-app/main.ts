// The README app: the examples of README.md and the guides against tabagent as
// installed from its tarball. scripts/readme-app.mjs copies their folders
// (scripts/doc-examples.mjs) in unchanged beside this folder, whose src/ and
// e2e/ hold the browser's versions of what the examples' hidden parts import,
// at the paths they import them from. `?example=examples/readme/01-name.ts`
// runs one; e2e/readme-package.spec.ts opens each.
import { readmeRun } from './src/test-support/readme-model.js';

const examples = import.meta.glob(['./examples/readme/*.ts', './examples/docs/*/*.ts']);
const status = document.getElementById('status')!;

try {
  const name = new URLSearchParams(location.search).get('example');
  const load = examples[`./${name}`];
  if (!load) throw new Error(`No example ${name} in this app`);
  // Resolves once the example's top-level awaits (and its own checks) are done.
  await load();
  for (const fake of readmeRun().fakes) await fake.assertComplete();
  status.textContent = 'ok';
} catch (error) {
  status.textContent = `error: ${(error as Error).name}: ${(error as Error).message}`;
}
