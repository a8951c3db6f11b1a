// Where wllama's WebAssembly build is, in a build from these sources: Vite
// emits the package's own file (it must match the JavaScript's version). The
// prebuilt engine has wllama-wasm-file.ts in this module's place.
export { default } from '@wllama/wllama/esm/wasm/wllama.wasm?url';
