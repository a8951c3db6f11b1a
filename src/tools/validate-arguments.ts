// Arguments from a small model are often almost right: "3" for 3, "true" for
// true, one value where a list was asked for. Coerce those, guided by the JSON
// Schema the model was shown, then let the tool's own schema decide.
import type { ArgumentIssue } from '../errors/index.js';
import { isJsonObject, MAX_JSON_DEPTH, nestsDeeper, type JsonSchema } from '../shared/json.js';
import type { InputSchema } from './types.js';
import { UNSAFE_KEY_MESSAGE, unsafeKeyPaths } from './unsafe-keys.js';

export type Validation<T> = { ok: true; value: T } | { ok: false; issues: ArgumentIssue[] };

export async function validateArguments<T>(input: InputSchema, parameters: JsonSchema, args: unknown): Promise<Validation<T>> {
  // Every check below walks the value: bounded first.
  if (nestsDeeper(args)) return { ok: false, issues: [{ path: '', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }] };
  const coerced = coerce(args, parameters);
  // Checked on the whole value, not along the schema: under z.unknown() or
  // z.record nothing says where such a key may hide (z.record even drops
  // `__proto__` without a word). Refused before zod sees it, so no transform
  // or refine the app wrote gets it either.
  const reserved = unsafeKeyPaths(coerced);
  if (reserved.length) return { ok: false, issues: reserved.map((path) => ({ path, message: UNSAFE_KEY_MESSAGE })) };
  const issues = unexpectedFields(coerced, parameters, []);
  const result = await input['~standard'].validate(coerced);
  if (result.issues) {
    // A problem both checks find (an unexpected field, which a JSON Schema validator reports too) is told once.
    const told = new Set(issues.map((i) => `${i.path}\n${i.message}`));
    for (const issue of result.issues) {
      const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
      if (!told.has(`${path}\n${issue.message}`)) issues.push({ path, message: issue.message });
    }
  }
  if (issues.length || result.issues) return { ok: false, issues };
  return { ok: true, value: result.value as T };
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  return Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
}

const NUMBER = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

export function coerce(value: unknown, schema: unknown): unknown {
  if (!isJsonObject(schema)) return value;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(branches)) {
    if (branches.some((b) => matchesType(value, b))) return value;
    for (const branch of branches) {
      const attempt = coerce(value, branch);
      if (attempt !== value && matchesType(attempt, branch)) return attempt;
    }
    return value;
  }
  const types = typesOf(schema);
  if (types.length === 0 || matchesType(value, schema)) return descend(value, schema);
  if (typeof value === 'string') {
    const text = value.trim();
    if ((types.includes('number') || (types.includes('integer') && !text.includes('.'))) && NUMBER.test(text)) return Number(text);
    if (types.includes('boolean') && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
    if (types.includes('null') && (text === 'null' || text === '')) return null;
    if ((types.includes('object') || types.includes('array')) && /^[[{]/.test(text)) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (matchesType(parsed, schema)) return descend(parsed, schema);
      } catch {
        // Not JSON after all: let validation report it.
      }
    }
  }
  if (typeof value === 'number' && types.includes('string')) return String(value);
  if (types.includes('array') && value !== null && value !== undefined && !Array.isArray(value)) {
    return descend([value], schema);
  }
  return value;
}

function descend(value: unknown, schema: JsonSchema): unknown {
  if (Array.isArray(value) && isJsonObject(schema.items)) {
    const items = schema.items;
    return value.map((v) => coerce(v, items));
  }
  if (isJsonObject(value) && isJsonObject(schema.properties)) {
    const properties = schema.properties;
    const out: Record<string, unknown> = {};
    // Defined, not assigned: an own `__proto__` key from JSON stays a key (and is refused).
    for (const [key, v] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: Object.hasOwn(properties, key) ? coerce(v, properties[key]) : v, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

function matchesType(value: unknown, schema: unknown): boolean {
  if (!isJsonObject(schema)) return true;
  const types = typesOf(schema);
  if (types.length === 0) return true;
  return types.some((type) => {
    switch (type) {
      case 'string': return typeof value === 'string';
      case 'number': return typeof value === 'number';
      case 'integer': return typeof value === 'number' && Number.isInteger(value);
      case 'boolean': return typeof value === 'boolean';
      case 'null': return value === null;
      case 'array': return Array.isArray(value);
      case 'object': return isJsonObject(value);
      default: return false;
    }
  });
}

/** Fields the schema does not have, where no others are allowed (reserved keys were refused before). */
function unexpectedFields(value: unknown, schema: unknown, path: string[]): ArgumentIssue[] {
  if (!isJsonObject(schema)) return [];
  if (Array.isArray(value) && isJsonObject(schema.items)) {
    return value.flatMap((v, i) => unexpectedFields(v, schema.items, [...path, String(i)]));
  }
  if (!isJsonObject(value)) return [];
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const closed = closedObject(schema);
  const issues: ArgumentIssue[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (Object.hasOwn(properties, key)) issues.push(...unexpectedFields(v, properties[key], [...path, key]));
    else if (closed && !required.includes(key)) issues.push({ path: [...path, key].join('.'), message: 'unexpected field' });
  }
  return issues;
}

/**
 * An object held to the keys it names (`properties`, `required`), as the
 * grammar holds it (xgrammar's strict reading; docs/tools.md): one that
 * names keys and does not say others may come. `{ type: 'object' }` alone
 * names none and is any object.
 */
function closedObject(schema: JsonSchema): boolean {
  // Keys by pattern: the JSON Schema check judges those.
  if ('patternProperties' in schema || 'propertyNames' in schema) return false;
  const other = 'additionalProperties' in schema ? schema.additionalProperties : schema.unevaluatedProperties;
  if (other !== undefined) return other === false;
  return isJsonObject(schema.properties) || (Array.isArray(schema.required) && schema.required.length > 0);
}
