// An MCP tool's arguments, checked against its own JSON Schema before the
// call. @cfworker/json-schema interprets the schema (no eval, no new
// Function), so a page under a strict Content-Security-Policy can use it.
// Shaped as a Standard Schema, so the call pipeline checks it as it checks zod.
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from '@cfworker/json-schema';
import type { InputSchema } from '../tools/types.js';

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

export function jsonSchemaInput(schema: Record<string, unknown>): InputSchema {
  const validator = new Validator(schema as Schema, draftOf(schema), false);
  return {
    '~standard': {
      validate(value: unknown) {
        const result = validator.validate(value);
        if (result.valid) return { value };
        return { issues: issuesOf(result.errors) };
      },
    },
  };
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
