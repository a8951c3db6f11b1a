// A value checked against a JSON Schema from outside: an MCP or WebMCP tool's
// arguments before the call, a raw tool's call as its turn is read (run/raw-
// calls.ts), a structured reply (object-output.ts). @cfworker/json-schema
// interprets the schema (no eval, no new Function), so a page under a strict
// Content-Security-Policy can use it. Shaped as a Standard Schema, so the
// call pipeline checks it as it checks zod.
//
// The schema is a server's: nothing in it may break a run. What the
// validator cannot use is left out, each with a warning (the tool's
// `warnings`; a chat emits `tool-warning`), and the rest is checked; the
// server checks its arguments too. Before the validator sees the schema:
// a pattern it cannot compile with the `u` flag is written plain where it
// only escapes characters that need none (shared/schema-pattern.ts), else
// left out; an `$id` that is not a URL goes. After: a `$ref` that resolves to
// nothing here (another document, a missing `$defs` entry) goes. Should the
// validator still throw on a call, the model is told and the call is not made.
import { Validator, dereference, schemaArrayKeyword, schemaKeyword, schemaMapKeyword, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import { messageOf } from '../errors/message-of.js';
import { unicodePattern } from '../shared/schema-pattern.js';
import type { InputSchema } from './types.js';

/** What is wrong with a value, each where it is (`path`: keys from the value's root). */
export type SchemaIssues = { issues: Array<{ message: string; path: string[] }> };

/** The check of a tool's arguments, and what of its schema it leaves out. */
export interface SchemaCheck {
  input: InputSchema;
  /** The same check, synchronous. */
  check(value: unknown): { value: unknown } | SchemaIssues;
  /** What of the schema is not checked here, and why: one sentence each. */
  warnings: string[];
}

// Keywords that only say that something under them failed: the failure itself is reported too.
const WRAPPERS = new Set(['properties', 'items', 'prefixItems', 'additionalItems', 'additionalProperties', 'patternProperties', 'allOf', '$ref', '$dynamicRef', '$recursiveRef', 'if', 'then', 'else', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames']);

/** The draft a schema declares (MCP's default, 2020-12, when it declares none). */
function draftOf(schema: { $schema?: unknown }): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-06') || declared.includes('draft-07')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

export function jsonSchemaInput(given: Record<string, unknown>): SchemaCheck {
  const warnings: string[] = [];
  // From the wire, so JSON: a copy the validator may annotate and this may trim.
  const schema = structuredClone(given);
  eachSchema(schema, '#', (node, at) => usable(node, at, warnings));
  const validator = build(schema, warnings);
  if (validator) {
    // What the validator resolves refs against (its own lookup is built the same way).
    const lookup = dereference(schema as Schema);
    eachSchema(schema, '#', (node, at) => resolvable(node, at, lookup, warnings));
  }
  const check = (value: unknown): { value: unknown } | SchemaIssues => {
    if (!validator) return { value };
    let result: ReturnType<Validator['validate']>;
    try {
      result = validator.validate(value);
    } catch (error) {
      return { issues: [{ message: `the tool's schema cannot be checked here (${messageOf(error)}); the call was not made`, path: [] }] };
    }
    if (result.valid) return { value };
    return { issues: issuesOf(result.errors) };
  };
  return { input: { '~standard': { validate: check } }, check, warnings };
}

/** The validator, or none when it refuses the schema even without its `$id`s (then only the server checks). */
function build(schema: Record<string, unknown>, warnings: string[]): Validator | undefined {
  try {
    return new Validator(schema as Schema, draftOf(schema), false);
  } catch (error) {
    // Two subschemas with one `$id`, say: the ids go, the refs into the document stay.
    warnings.push(`#: its $ids cannot be used (${messageOf(error)}); left out`);
    eachSchema(schema, '#', (node) => {
      delete node.$id;
      delete node.id;
    });
  }
  try {
    return new Validator(schema as Schema, draftOf(schema), false);
  } catch (error) {
    warnings.push(`#: the schema cannot be used to check arguments (${messageOf(error)}); only the server checks them`);
    return undefined;
  }
}

/** Before the validator sees it: patterns it can compile, `$id`s that are URLs. */
function usable(node: Record<string, unknown>, at: string, warnings: string[]): void {
  if ('pattern' in node) {
    const pattern = typeof node.pattern === 'string' ? unicodePattern(node.pattern) : undefined;
    if (pattern === undefined) {
      warnings.push(`${at}/pattern: ${JSON.stringify(node.pattern)} is not a regular expression this browser can check (ECMA-262 with the u flag); left out`);
      delete node.pattern;
    } else node.pattern = pattern;
  }
  const patterns = node.patternProperties;
  if (isObject(patterns)) {
    let dropped = false;
    node.patternProperties = Object.fromEntries(
      Object.entries(patterns).flatMap(([key, value]): [string, unknown][] => {
        const pattern = unicodePattern(key);
        if (pattern !== undefined) return [[pattern, value]];
        warnings.push(`${at}/patternProperties: ${JSON.stringify(key)} is not a regular expression this browser can check; left out, with the limits on other properties`);
        dropped = true;
        return [];
      }),
    );
    // The properties it matched must not fall to additionalProperties: false.
    if (dropped) {
      delete node.additionalProperties;
      delete node.unevaluatedProperties;
    }
  }
  for (const key of ['$id', 'id'] as const) {
    const id = node[key];
    if (typeof id === 'string' && !URL.canParse(id, 'https://tabagent.invalid/')) {
      warnings.push(`${at}/${key}: ${JSON.stringify(id)} is not a URL; left out`);
      delete node[key];
    }
  }
}

/** After the validator read the schema: a `$ref` it could not resolve goes (it would throw on every call that reaches it). */
function resolvable(node: Record<string, unknown>, at: string, lookup: Record<string, unknown>, warnings: string[]): void {
  for (const [key, absolute] of [['$ref', '__absolute_ref__'], ['$recursiveRef', '__absolute_recursive_ref__']] as const) {
    if (!(key in node)) continue;
    const uri = (node as Record<string, unknown>)[absolute] ?? node[key];
    if (typeof uri === 'string' && lookup[uri] !== undefined) continue;
    warnings.push(`${at}/${key}: ${JSON.stringify(node[key])} points to nothing in the schema (another document is never fetched); left out`);
    delete node[key];
  }
}

/** Every subschema of `schema` (where the validator looks for them), with its JSON Pointer. */
function eachSchema(schema: unknown, at: string, visit: (node: Record<string, unknown>, at: string) => void): void {
  if (!isObject(schema)) return;
  visit(schema, at);
  for (const [key, value] of Object.entries(schema)) {
    const here = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (Array.isArray(value)) {
      if (schemaArrayKeyword[key]) value.forEach((s, i) => eachSchema(s, `${here}/${i}`, visit));
    } else if (schemaMapKeyword[key] || key === 'dependencies') {
      if (isObject(value)) for (const [name, s] of Object.entries(value)) eachSchema(s, `${here}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`, visit);
    } else if (schemaKeyword[key]) eachSchema(value, here, visit);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function issuesOf(errors: readonly OutputUnit[]): Array<{ message: string; path: string[] }> {
  const leaves = errors.filter((e) => !WRAPPERS.has(e.keyword));
  const chosen = leaves.length ? leaves : errors;
  const seen = new Set<string>();
  const issues: Array<{ message: string; path: string[] }> = [];
  for (const error of chosen) {
    const path = pointerPath(error.instanceLocation);
    // A `false` schema: a field that may not be there (additionalProperties: false).
    let message = error.keyword === 'false' ? 'unexpected field' : error.error;
    // "does not have required property "city"": the model reads it where the field belongs.
    const missing = error.keyword === 'required' ? /property "(.+)"/.exec(error.error) : null;
    if (missing) {
      path.push(missing[1]!);
      message = 'required';
    }
    const key = `${path.join('.')}\n${message}`;
    if (!seen.has(key)) issues.push({ message, path }), seen.add(key);
  }
  return issues;
}

/** `#/a/b~1c/0` → ['a', 'b/c', '0']. */
function pointerPath(location: string): string[] {
  const pointer = location.replace(/^#/, '');
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'));
}
