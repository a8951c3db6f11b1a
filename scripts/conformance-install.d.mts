// Types of conformance-install.mjs, for the spec that runs the suite.
export const CONFORMANCE_DIR: string;
/** The Node 22 the suite runs on. */
export const CONFORMANCE_NODE: string;
export const CONFORMANCE_CLI: string;
