// Types of bundle-size.mjs, for the TypeScript tests that use it.
export const SIZE_BUILD: string;
export const PAGE_ENTRY_BUDGET_KB: number;
export function buildSizeEntry(): void;
export function gzipKb(file: string): number;
export function staticClosure(file: string, seen?: string[]): string[];
export function pageEntry(): { files: string[]; kb: number };
export function packageSizes(): { tarballMb: number; unpackedMb: number; installedMb: number; installedPackages: string[] };
