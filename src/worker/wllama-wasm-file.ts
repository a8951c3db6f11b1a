// Where wllama's WebAssembly build is, for the prebuilt engine
// (dist/script-tag/wllama-engine.js; scripts/build-package.mjs puts this
// module in place of wllama-wasm.ts): the file beside it, or the URL an app's
// bundler gave it, passed in the hash of the worker's URL (packaged-worker.ts).
const given = new URLSearchParams(self.location.hash.slice(1)).get('wllama-wasm');

export default given ?? new URL(/* @vite-ignore */ './wllama.wasm', import.meta.url).href;
