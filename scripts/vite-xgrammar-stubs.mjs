// xgrammar's Emscripten glue reaches for Node's `module` (and `url`) on a path
// that runs only under Node. Vite stubs them for the browser and says so, once
// per build, in a warning that is no news. This plugin gives that glue empty
// modules of our own instead, so the builds print only what is news. Browser
// builds only: the unit tests run xgrammar under Node, where it needs them.
const STUB = '\0tabagent-node-stub:';

/** @returns {import('vite').Plugin} */
export function xgrammarNodeStubs() {
  return {
    name: 'tabagent:xgrammar-node-stubs',
    enforce: 'pre',
    resolveId(id, importer) {
      if ((id === 'module' || id === 'url') && importer?.includes('@mlc-ai/web-xgrammar')) return STUB + id;
      return null;
    },
    load(id) {
      return id.startsWith(STUB) ? 'export default {};' : null;
    },
  };
}
