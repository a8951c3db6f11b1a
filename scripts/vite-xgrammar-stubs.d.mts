// Types of vite-xgrammar-stubs.mjs, for the Vite configs written in TypeScript.
import type { Plugin } from 'vite';
export function xgrammarNodeStubs(): Plugin;
