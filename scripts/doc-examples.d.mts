/** Each document with TypeScript examples, and the folder (from the repository's root) they come from. */
export declare const DOC_EXAMPLES: readonly { readonly doc: string; readonly examples: string }[];
/** The example files' names in `folder` (a DOC_EXAMPLES `examples`), in file-name order: the order the document shows them. `root` is the repository's URL, ending in `/`. */
export declare function exampleFiles(root: URL, folder: string): string[];
