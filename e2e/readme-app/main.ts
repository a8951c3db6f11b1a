// The README app: README's examples against tabagent as installed from its
// tarball. scripts/readme-app.mjs copies examples/readme/ in unchanged beside
// this folder, whose src/ and e2e/ hold the browser's versions of what the
// examples' hidden parts import, at the paths they import them from.
// `?example=01-quick-start` runs one; e2e/readme-package.spec.ts opens each.
import { readmeRun } from './src/test-support/readme-model.js';

const examples = import.meta.glob('./examples/readme/*.ts');
const status = document.getElementById('status')!;

try {
  const name = new URLSearchParams(location.search).get('example');
  const load = examples[`./examples/readme/${name}.ts`];
  if (!load) throw new Error(`No example ${name} in this app`);
  // Resolves once the example's top-level awaits (and its own checks) are done.
  await load();
  for (const fake of readmeRun().fakes) await fake.assertComplete();
  status.textContent = 'ok';
} catch (error) {
  status.textContent = `error: ${(error as Error).name}: ${(error as Error).message}`;
}
