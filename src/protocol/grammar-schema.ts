// A tool's JSON Schema as the grammar engines can take it. The schema is a
// server's (MCP, WebMCP) as much as the app's, and xgrammar 0.1.27 (WebLLM's,
// and the strict fake's) aborts its WebAssembly on much of what real servers
// write: a pattern it cannot read (lookaround, `\p{…}`, `\b`, backreferences,
// inline flags, a lone `{`), a `$ref` to another document or to nothing, a
// property name holding `"`, a line break or NUL, a keyword of the wrong type
// (`type: 'strng'`, `minimum: 'x'`, draft-07's `items: [...]`, `enum: []`).
// An abort can leave the engine unable to compile any grammar again. So what
// it cannot take is left out of the grammar, which then allows more (any
// string, any value, any object there); the arguments are checked against
// the whole schema once read, and the model is told what was wrong. A schema
// with nothing to leave out or rewrite is returned as it is. wllama's GBNF is built from the
// same, so both engines constrain alike. Where the engines read a keyword
// otherwise than JSON Schema means it, the schema is rewritten to mean what
// it says (schema-meaning.ts).
import type { JsonSchema } from '../shared/json.js';
import { Gbnf } from './gbnf-builder.js';
import { regexGbnf } from './gbnf-regex.js';
import { choicesAsPattern, declaringRequired, FORMAT_PATTERNS, openWhereUnsaid, searchingPattern } from './schema-meaning.js';
import { unicodePattern } from '../shared/schema-pattern.js';

type Obj = Record<string, unknown>;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'];
const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const ONE_SCHEMA = ['items', 'additionalItems', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMA_MAPS = ['$defs', 'definitions', 'dependentSchemas'];
/** Keywords the engines read alone, leaving what is beside them. */
const COMPOSITION = ['$ref', 'anyOf', 'oneOf', 'allOf'];
/** What makes an object's properties: all of it goes when a property name is one the engine cannot take. */
const OBJECT_SHAPE = ['properties', 'required', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'propertyNames', 'dependentRequired', 'dependentSchemas'];

/** `schema` without what the grammar engines cannot take (the same object when there is nothing). */
export function grammarSchema(schema: JsonSchema): JsonSchema {
  const cleaned = new Cleaner(schema).schema(schema);
  return isObj(cleaned) ? cleaned : {};
}

class Cleaner {
  constructor(private readonly root: unknown) {}

  schema(node: unknown): unknown {
    if (typeof node === 'boolean') return node;
    if (!isObj(node)) return {};
    const out: Obj = { ...node };
    let changed = false;
    const drop = (key: string) => {
      if (key in out) delete out[key], (changed = true);
    };
    const set = (key: string, value: unknown) => {
      if (value !== out[key]) (out[key] = value), (changed = true);
    };
    if ('type' in out && !validType(out.type)) drop('type');
    for (const key of COUNTS) if (key in out && !(Number.isInteger(out[key]) && (out[key] as number) >= 0)) drop(key);
    for (const key of BOUNDS) if (key in out && !(typeof out[key] === 'number' && Number.isFinite(out[key]))) drop(key);
    if (typeof out.multipleOf === 'number' && !(out.multipleOf > 0)) drop('multipleOf');
    if ('enum' in out && !(Array.isArray(out.enum) && out.enum.length > 0)) drop('enum');
    if (typeof out.format === 'string' && Object.hasOwn(FORMAT_PATTERNS, out.format) && !('pattern' in out)) set('pattern', `^${FORMAT_PATTERNS[out.format]}$`);
    drop('format');
    // Left to the argument check: the engines read them narrower (schema-meaning.ts).
    drop('minLength'), drop('maxLength');
    if (mayBeFraction(out.type)) for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) drop(key);
    if ('pattern' in out) {
      const pattern = readablePattern(out.pattern);
      if (pattern === undefined) drop('pattern');
      else set('pattern', searchingPattern(pattern));
    }
    if ('required' in out && !(Array.isArray(out.required) && out.required.every((r) => typeof r === 'string'))) drop('required');
    if ('$ref' in out && !this.resolves(out.$ref)) drop('$ref');
    // Draft-07's list form of `items`: the engines read only one schema there.
    if (Array.isArray(out.items)) drop('items'), drop('additionalItems');
    for (const key of ONE_SCHEMA) {
      if (!(key in out)) continue;
      if (typeof out[key] !== 'boolean' && !isObj(out[key])) drop(key);
      else set(key, this.schema(out[key]));
    }
    for (const key of SCHEMA_LISTS) {
      if (!(key in out)) continue;
      const list = out[key];
      if (!Array.isArray(list) || list.length === 0) drop(key);
      else set(key, sameList(list, list.map((s) => this.schema(s))));
    }
    for (const key of SCHEMA_MAPS) {
      if (!(key in out)) continue;
      if (!isObj(out[key])) drop(key);
      else set(key, this.map(out[key] as Obj));
    }
    if ('properties' in out) {
      if (!isObj(out.properties)) drop('properties');
      else set('properties', this.map(out.properties));
    }
    if ('patternProperties' in out) {
      if (!isObj(out.patternProperties)) drop('patternProperties');
      else {
        const entries = Object.entries(out.patternProperties).flatMap(([p, s]): [string, unknown][] => {
          const pattern = readablePattern(p);
          return pattern === undefined ? [] : [[searchingPattern(pattern), this.schema(s)]];
        });
        // A pattern left out: the properties it matched must not fall to a closed object.
        if (entries.length < Object.keys(out.patternProperties).length) drop('additionalProperties'), drop('unevaluatedProperties');
        set('patternProperties', sameMap(out.patternProperties, Object.fromEntries(entries)));
      }
    }
    // What follows is left out where the engines would forbid a valid value:
    // any value there, the argument check reads it whole.
    // Keys by pattern beside declared ones: the engines read the patterns alone.
    if (isObj(out.properties) && isObj(out.patternProperties)) for (const key of OBJECT_SHAPE) drop(key);
    // Fewer items than `prefixItems` lists (a tuple's optional end): the engines write them all.
    if (Array.isArray(out.prefixItems) && !(typeof out.minItems === 'number' && out.minItems >= out.prefixItems.length)) drop('prefixItems'), drop('items'), drop('unevaluatedItems');
    // The engines read a `$ref`, an `anyOf`/`oneOf` or an `allOf` and nothing
    // beside it, so an object's keys beside one could not be written; and
    // xgrammar gives up on an `allOf` of more parts than one (any value).
    const composed = COMPOSITION.filter((key) => key in out);
    if (composed.length > 0 && ((Array.isArray(out.allOf) && out.allOf.length > 1) || OBJECT_SHAPE.some((key) => key in out))) for (const key of [...composed, ...OBJECT_SHAPE]) drop(key);
    const names = [...(isObj(out.properties) ? Object.keys(out.properties) : []), ...(Array.isArray(out.required) ? (out.required as string[]) : [])];
    if (names.some((n) => !SAFE_NAME.test(n))) for (const key of OBJECT_SHAPE) drop(key);
    return choicesAsPattern(declaringRequired(openWhereUnsaid(changed ? out : (node as Obj))));
  }

  private map(map: Obj): Obj {
    return sameMap(map, Object.fromEntries(Object.entries(map).map(([k, s]) => [k, this.schema(s)])));
  }

  /** A `$ref` the engines resolve: into this schema (`#`, `#/…`), to something that is there. */
  private resolves(ref: unknown): boolean {
    if (typeof ref !== 'string' || !ref.startsWith('#')) return false;
    if (ref === '#') return true;
    // xgrammar reads a pointer's parts as written: an escaped name (`%20`, `~1`) names nothing there.
    if (!ref.startsWith('#/') || /[%~]/.test(ref)) return false;
    let at: unknown = this.root;
    for (const part of ref.slice(2).split('/')) {
      if (!isObj(at) || !Object.hasOwn(at, part)) return false;
      at = at[part];
    }
    return isObj(at) || typeof at === 'boolean';
  }
}

/** Property names xgrammar takes: no `"` and no control character (it aborts on `"`, a line break, a NUL), no `\\` (written unescaped, it refuses the name's JSON spelling). */
const SAFE_NAME = /^[^"\\\u0000-\u001f]*$/;

/** A type that admits a number with a fraction (none given: any). */
function mayBeFraction(type: unknown): boolean {
  return type === undefined || type === 'number' || (Array.isArray(type) && type.includes('number'));
}

function validType(type: unknown): boolean {
  if (typeof type === 'string') return TYPES.has(type);
  return Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && TYPES.has(t)) && new Set(type).size === type.length;
}

/** The pattern as the engines read it (`u`-mode ECMA-262, in the subset xgrammar reads), or undefined. */
function readablePattern(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return undefined;
  const unicode = unicodePattern(pattern);
  if (unicode === undefined) return undefined;
  try {
    regexGbnf(new Gbnf(), unicode, true);
    return unicode;
  } catch {
    return undefined;
  }
}

function sameList(before: unknown[], after: unknown[]): unknown[] {
  return after.every((v, i) => v === before[i]) ? before : after;
}

function sameMap(before: Obj, after: Obj): Obj {
  const keys = Object.keys(after);
  return keys.length === Object.keys(before).length && keys.every((k) => Object.hasOwn(before, k) && before[k] === after[k]) ? before : after;
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
