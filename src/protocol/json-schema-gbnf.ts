// JSON Schema as GBNF, accepting what xgrammar 0.1.27's `json_schema` and
// `qwen_xml_parameter` formats accept (structural tags compile schemas with
// any whitespace, separators `,` and `:`, strict mode), so a reply is
// constrained alike on WebLLM and on wllama. One file (over 300 lines): one
// recursive translation whose rules refer to each other. What follows xgrammar:
// - keywords are read in its order of precedence: $ref, const, enum,
//   anyOf/oneOf, allOf, type; then properties…, then items…; else any value;
// - strict mode: an object admits only its `properties` unless
//   additionalProperties (or unevaluatedProperties) allows more, an array
//   only its prefixItems unless `items` allows more; but a schema that is just
//   `{ type }` (annotations aside) is the basic type: any object, any array;
// - properties come in the schema's declared order (not required-first as
//   llama.cpp's converter does), any of them may be left out unless required,
//   extra properties only after the declared ones;
// - const/enum values are written compactly; xgrammar's serializer writes
//   `/` as `\/` and fractions with 17 digits, so those forms are accepted
//   besides JSON.stringify's.
// Where this differs, on purpose:
// - whitespace between tokens is at most MAX_JSON_SPACE characters (xgrammar:
//   unbounded), because a model that likes whitespace would never stop;
// - numeric bounds are not enforced (arguments are validated once read),
//   except that an integer's bounds limit its sign and digit count;
// - min/maxProperties are ignored; a multi-part allOf merges its parts
//   (xgrammar 0.1.27 gives up and allows any value);
// - strings with minLength/maxLength are JSON strings of that many characters
//   (xgrammar: raw characters, no escapes, control characters let through);
// - formats: date, time, date-time, uuid and ipv4 are written out; the others
//   (email, uri, hostname, ipv6…) fall through to `pattern`, then length,
//   then any string; a pattern this cannot read (lookaround…) is any string;
// - `false` (and unsatisfiable arrays) match nothing instead of failing.
import type { JsonSchema } from '../shared/json.js';
import { type Gbnf, NOTHING, alt, literal, repeat, seq } from './gbnf-builder.js';
import { UnsupportedRegex, regexGbnf } from './gbnf-regex.js';
import { FORMAT_PATTERNS } from './schema-meaning.js';

/** Most whitespace characters allowed between two JSON tokens. */
export const MAX_JSON_SPACE = 20;

type Schema = JsonSchema | boolean;
type Flavor = 'json' | 'xml';
type Obj = Record<string, unknown>;

/** GBNF for one JSON value that fits `schema`; returns the rule's name. */
export function jsonSchemaGbnf(g: Gbnf, schema: Schema): string {
  return new Converter(g, schema).ref('#');
}

/** GBNF for the `<parameter=…>` list of Qwen's XML calls for an object `schema`. */
export function qwenXmlParametersGbnf(g: Gbnf, schema: Schema): string {
  const converter = new Converter(g, schema);
  return g.rule('xml-params', converter.object(isObj(schema) ? schema : {}, 'xml'));
}

/** Keywords that do not change what a schema accepts (xgrammar skips them too when it spots a basic type). */
const ANNOTATIONS = new Set(['title', 'default', 'description', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', '$schema']);

class Converter {
  private readonly refs = new Map<string, string>();

  constructor(
    private readonly g: Gbnf,
    private readonly root: Schema,
  ) {}

  ref(uri: string): string {
    const known = this.refs.get(uri);
    if (known) return known;
    const target = resolve(this.root, uri);
    if (target === undefined) return this.any('json');
    const name = this.g.name(uri === '#' ? 'value' : `ref-${uri.split('/').pop()}`);
    this.refs.set(uri, name);
    return this.g.set(name, this.visit(target, 'json'));
  }

  /** An expression for a value that fits `schema` (a rule name or one element). */
  value(schema: unknown, flavor: Flavor = 'json'): string {
    const basic = this.basic(schema, flavor);
    if (basic) return basic;
    const body = this.visit(schema, flavor);
    return /^[A-Za-z][A-Za-z0-9-]*$/.test(body) ? body : this.g.rule('v', body);
  }

  private visit(schema: unknown, flavor: Flavor): string {
    const basic = this.basic(schema, flavor);
    if (basic) return basic;
    if (schema === false) return NOTHING;
    if (!isObj(schema)) return this.any(flavor);
    if (typeof schema.$ref === 'string') return this.ref(schema.$ref);
    if ('const' in schema) return constants([schema.const]);
    if (Array.isArray(schema.enum)) return constants(schema.enum);
    const anyOf = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(anyOf)) return alt(anyOf.filter((s) => s !== false).map((s) => this.value(s)));
    if (Array.isArray(schema.allOf)) return this.visit(schema.allOf.length === 1 ? schema.allOf[0] : mergeAll(schema.allOf), 'json');
    const type = schema.type;
    if (Array.isArray(type)) {
      if (type.length === 0) return this.visit(without(schema, 'type'), 'json');
      return alt(type.map((t) => this.value({ ...schema, type: t })));
    }
    switch (type) {
      case 'integer':
        return integer(schema);
      case 'number':
        return this.basicRule('number');
      case 'string':
        return this.string(schema, flavor);
      case 'boolean':
      case 'null':
        return this.basicRule(type);
      case 'array':
        return this.array(schema);
      case 'object':
        return this.object(schema, 'json');
    }
    if ('properties' in schema || 'additionalProperties' in schema || 'unevaluatedProperties' in schema) return this.object(schema, 'json');
    if ('items' in schema || 'prefixItems' in schema || 'unevaluatedItems' in schema) return this.array(schema);
    return this.any(flavor);
  }

  /** The shared rule when `schema` is true, `{}`, or just `{ type }` (xgrammar's non-strict basic rules). */
  private basic(schema: unknown, flavor: Flavor): string | null {
    if (schema === true) return this.any(flavor);
    if (!isObj(schema)) return null;
    const keys = Object.keys(schema).filter((k) => !ANNOTATIONS.has(k));
    if (keys.length === 0) return this.any(flavor);
    if (keys.length !== 1 || keys[0] !== 'type' || typeof schema.type !== 'string') return null;
    if (flavor === 'xml') return schema.type === 'string' ? this.xmlString() : null;
    return ['integer', 'number', 'string', 'boolean', 'null', 'array', 'object'].includes(schema.type) ? this.basicRule(schema.type) : null;
  }

  private any(flavor: Flavor): string {
    if (flavor === 'json') return this.basicRule('value');
    return this.g.shared('xml-value', () => [this.basicRule('number'), this.xmlString(), this.basicRule('boolean'), this.basicRule('null'), this.basicRule('array'), this.basicRule('object')].join(' | '));
  }

  private ws(): string {
    return this.g.shared('ws', () => repeat('[ \\n\\t]', 0, MAX_JSON_SPACE));
  }

  private comma(): string {
    return `${this.ws()} "," ${this.ws()}`;
  }

  private colon(): string {
    return `${this.ws()} ":" ${this.ws()}`;
  }

  private basicRule(kind: string): string {
    const g = this.g;
    switch (kind) {
      case 'integer':
        return g.shared('json-integer', () => '"0" | "-"? [1-9] [0-9]*');
      case 'number':
        return g.shared('json-number', () => '"-"? ("0" | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [+\\-]? [0-9]+)?');
      case 'string':
        return g.shared('json-string', () => `"\\"" ${this.jsonChar()}* "\\""`);
      case 'boolean':
        return g.shared('json-boolean', () => '"true" | "false"');
      case 'null':
        return g.shared('json-null', () => '"null"');
      case 'array':
        return g.shared('json-array', () => {
          const item = g.shared('json-array-item', () => `${this.comma()} ${this.basicRule('value')}`);
          return `"[" ${this.ws()} (${this.basicRule('value')} ${item}* ${this.ws()} "]" | "]")`;
        });
      case 'object':
        return g.shared('json-object', () => {
          const member = `${this.basicRule('string')} ${this.colon()} ${this.basicRule('value')}`;
          const more = g.shared('json-object-member', () => `${this.comma()} ${member}`);
          return `"{" ${this.ws()} (${member} ${more}* ${this.ws()} "}" | "}")`;
        });
      default:
        return g.shared('json-value', () => ['number', 'string', 'boolean', 'null', 'array', 'object'].map((k) => this.basicRule(k)).join(' | '));
    }
  }

  private jsonChar(): string {
    const escape = this.g.shared('json-escape', () => '[\\"\\\\/bfnrt] | "u" [0-9A-Fa-f]{4}');
    return this.g.shared('json-char', () => `[^"\\\\\\u0000-\\u001F] | "\\\\" ${escape}`);
  }

  /** A character of Qwen's XML parameter text: no raw <, >, & or control character; entities and JSON escapes allowed. */
  private xmlChar(): string {
    return this.g.shared('xml-char', () => {
      const entity = this.g.shared('xml-entity', () => '"&lt;" | "&gt;" | "&amp;" | "&quot;" | "&apos;"');
      this.jsonChar();
      return `[^<>&\\u0000-\\u001F\\\\] | "\\\\" json-escape | ${entity}`;
    });
  }

  private xmlString(): string {
    return this.g.shared('xml-string', () => `${this.xmlChar()}*`);
  }

  private string(schema: Obj, flavor: Flavor): string {
    const quote = (body: string) => (flavor === 'json' ? seq(['"\\""', body, '"\\""']) : body);
    const format = typeof schema.format === 'string' && Object.hasOwn(FORMAT_PATTERNS, schema.format) ? FORMAT_PATTERNS[schema.format] : undefined;
    if (format) return quote(regexGbnf(this.g, format));
    if (typeof schema.pattern === 'string') {
      try {
        return quote(regexGbnf(this.g, schema.pattern, flavor === 'json'));
      } catch (error) {
        // A pattern a grammar cannot express: any string, validated once read.
        if (!(error instanceof UnsupportedRegex)) throw error;
      }
    }
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
    if (min > 0 || max !== undefined) {
      if (max !== undefined && max < min) return NOTHING;
      return quote(repeat(flavor === 'json' ? this.jsonChar() : this.xmlChar(), min, max));
    }
    return flavor === 'json' ? this.basicRule('string') : this.xmlString();
  }

  private array(schema: Obj): string {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const rest = 'items' in schema ? schema.items : 'unevaluatedItems' in schema ? schema.unevaluatedItems : false;
    const more = rest !== false && rest !== undefined;
    const min = typeof schema.minItems === 'number' ? Math.max(0, schema.minItems) : 0;
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
    const unsatisfiable = prefix.includes(false) || (max !== undefined && (min > max || max < prefix.length)) || (!more && prefix.length < min);
    if (unsatisfiable) return NOTHING;
    const ws = this.ws();
    const extra = more ? this.g.rule('item', `${this.comma()} ${this.value(rest)}`) : '';
    if (prefix.length === 0) {
      if (!more || max === 0) return `"[" ${ws} "]"`;
      const items = `${seq([this.value(rest), repeat(extra, Math.max(0, min - 1), max === undefined ? undefined : max - 1)])} ${ws} "]"`;
      return min === 0 ? `"[" ${ws} (${items} | "]")` : `"[" ${ws} ${items}`;
    }
    const items = prefix.map((s) => this.value(s)).join(` ${this.comma()} `);
    const tail = more ? repeat(extra, Math.max(0, min - prefix.length), max === undefined ? undefined : max - prefix.length) : '""';
    return `"[" ${ws} ${seq([items, tail])} ${ws} "]"`;
  }

  /** An object (flavor `xml`: Qwen's parameter list, whose values are XML text or JSON). */
  object(schema: Obj, flavor: Flavor): string {
    const ws = this.ws();
    const properties = Object.entries(isObj(schema.properties) ? schema.properties : {}).filter(([, s]) => s !== false);
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
    const extra = extraSchema(schema);
    const name = (key: string) => (flavor === 'json' ? literal(JSON.stringify(key)) : literal(`<parameter=${key}>`));
    const entry = (key: string, value: string) => (flavor === 'json' ? `${key} ${this.colon()} ${value}` : `${key} ${ws} ${value} ${ws} "</parameter>"`);
    const extraEntry = () => {
      const key = flavor === 'json' ? this.basicRule('string') : `"<parameter=" ${this.g.shared('xml-name', () => '[a-zA-Z_] [a-zA-Z0-9_]*')} ">"`;
      return this.g.rule('extra', entry(key, this.value(extra, flavor)));
    };
    // `inner`: what follows "{" and its whitespace (JSON), or the whole list (XML).
    // The empty object shares the opening: alternatives that start alike
    // cost llama.cpp parse stacks (and trip a bug of xgrammar 0.1.27's parser).
    const wrap = (inner: string, canBeEmpty: boolean): string => {
      if (flavor === 'xml') return canBeEmpty ? `"" | ${inner}` : inner;
      return canBeEmpty ? `"{" ${ws} (${inner} "}" | "}")` : `"{" ${ws} ${inner} "}"`;
    };
    const names = isObj(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
    if (names.length > 0 || isObj(schema.propertyNames)) return wrap(this.namedEntries(schema, names, flavor), true);
    const sep = flavor === 'json' ? this.comma() : ws;
    if (properties.length === 0) {
      if (extra === undefined) return flavor === 'json' ? '"{}"' : '""';
      const one = extraEntry();
      const rest = this.g.rule('extras', `${sep} ${one}`);
      return wrap(`${one} ${rest}* ${ws}`, true);
    }
    // parts[i]: what may follow property i — later properties in order, each optional unless required, then extras.
    const patterns = properties.map(([key, s]) => entry(name(key), this.value(s, flavor)));
    const parts: string[] = [];
    parts[properties.length - 1] = extra === undefined ? '""' : `${this.g.rule('extras', `${sep} ${extraEntry()}`)}*`;
    for (let i = properties.length - 2; i >= 0; i--) {
      const next = `${sep} ${seq([patterns[i + 1]!, parts[i + 1]!])}`;
      parts[i] = this.g.rule('props', required.has(properties[i + 1]![0]) ? next : `${parts[i + 1]} | ${next}`);
    }
    const starts: string[] = [];
    for (let i = 0; i < properties.length; i++) {
      starts.push(seq([patterns[i]!, parts[i]!]));
      if (required.has(properties[i]![0])) break;
    }
    if (extra !== undefined && required.size === 0) starts.push(seq([extraEntry(), parts[properties.length - 1]!]));
    return wrap(flavor === 'json' ? `${alt(starts)} ${ws}` : `${ws} ${alt(starts)}`, required.size === 0);
  }

  /** Objects keyed by patternProperties or propertyNames (xgrammar: declared properties are then ignored). */
  private namedEntries(schema: Obj, patterns: [string, unknown][], flavor: Flavor): string {
    const ws = this.ws();
    const entry = (key: string, value: string) => (flavor === 'json' ? `${key} ${this.colon()} ${value}` : `"<parameter=" ${key} ">" ${ws} ${value} ${ws} "</parameter>"`);
    const quote = (key: string) => (flavor === 'json' ? seq(['"\\""', key, '"\\""']) : key);
    const key = (pattern: string) => {
      try {
        return quote(regexGbnf(this.g, pattern, flavor === 'json'));
      } catch (error) {
        if (!(error instanceof UnsupportedRegex)) throw error;
        return flavor === 'json' ? this.basicRule('string') : this.g.shared('xml-name', () => '[a-zA-Z_] [a-zA-Z0-9_]*');
      }
    };
    const one =
      patterns.length > 0
        ? this.g.rule('entry', alt(patterns.map(([p, s]) => entry(key(p), this.value(s, flavor)))))
        : this.g.rule('entry', entry(flavor === 'json' ? this.value({ ...(schema.propertyNames as Obj), type: 'string' }) : this.xmlKey(schema.propertyNames as Obj), this.any(flavor)));
    const rest = this.g.rule('entries', flavor === 'json' ? `${this.comma()} ${one}` : one);
    return flavor === 'json' ? `${one} ${rest}* ${ws}` : `${one} ${rest}*`;
  }

  private xmlKey(names: Obj): string {
    return this.value({ ...names, type: 'string' }, 'xml');
  }
}

/** What admits properties beyond the declared ones (undefined: none). */
function extraSchema(schema: Obj): unknown {
  if ('additionalProperties' in schema) return schema.additionalProperties === false ? undefined : schema.additionalProperties;
  if ('unevaluatedProperties' in schema) return schema.unevaluatedProperties === false ? undefined : schema.unevaluatedProperties;
  return undefined;
}

/** An integer; bounds limit its sign and number of digits (the value itself is validated once read). */
function integer(schema: Obj): string {
  const num = (k: string) => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
  const lows = [num('minimum') === undefined ? undefined : Math.ceil(num('minimum')!), num('exclusiveMinimum') === undefined ? undefined : Math.floor(num('exclusiveMinimum')!) + 1];
  const highs = [num('maximum') === undefined ? undefined : Math.floor(num('maximum')!), num('exclusiveMaximum') === undefined ? undefined : Math.ceil(num('exclusiveMaximum')!) - 1];
  const lo = Math.max(...lows.map((v) => v ?? -Infinity));
  const hi = Math.min(...highs.map((v) => v ?? Infinity));
  if (lo > hi) return NOTHING;
  const digits = (n: number) => (Number.isFinite(n) ? Math.floor(Math.log10(Math.max(1, Math.abs(n)))) + 1 : undefined);
  const options: string[] = [];
  if (lo <= 0 && hi >= 0) options.push('"0"');
  const tail = (n: number) => {
    const d = digits(n);
    return d === undefined ? '[0-9]*' : repeat('[0-9]', 0, d - 1);
  };
  if (hi >= 1) options.push(seq(['[1-9]', tail(hi)]));
  if (lo <= -1) options.push(seq(['"-"', '[1-9]', tail(lo)]));
  return options.join(' | ');
}

/** Alternatives for const/enum values, as xgrammar writes them and as JSON.stringify does. */
function constants(values: unknown[]): string {
  const forms = values.flatMap((v) => [serialize(v, true), serialize(v, false)]);
  return alt(forms.map(literal));
}

/** Compact JSON; `pico`: as xgrammar's serializer (picojson) writes it. */
function serialize(value: unknown, pico: boolean): string {
  if (typeof value === 'string') return pico ? picoString(value) : JSON.stringify(value);
  if (typeof value === 'number') return pico ? picoNumber(value) : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => serialize(v, pico)).join(',')}]`;
  if (isObj(value)) return `{${Object.entries(value).map(([k, v]) => `${serialize(k, pico)}:${serialize(v, pico)}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function picoString(s: string): string {
  const map: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return `"${s.replace(/["\\/\b\f\n\r\t\x00-\x1f\x7f]/g, (c) => map[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** printf's "%.f" for whole numbers below 2^53, "%.17g" otherwise. */
function picoNumber(n: number): string {
  if (!Number.isFinite(n)) return 'null';
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 53) return Object.is(n, -0) ? '-0' : n.toFixed(0);
  const [mantissa, expText] = n.toExponential(16).split('e') as [string, string];
  const exp = Number(expText);
  const trim = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (exp < -4 || exp >= 17) return `${trim(mantissa)}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return trim(n.toFixed(16 - exp));
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function without(schema: Obj, key: string): Obj {
  const { [key]: _, ...rest } = schema;
  return rest;
}

/** allOf parts merged: properties and required combined, other keywords from the last part that has them. */
function mergeAll(parts: unknown[]): Obj {
  const merged: Obj = {};
  for (const part of parts) {
    if (!isObj(part)) continue;
    const { properties, required, ...rest } = part;
    Object.assign(merged, rest);
    if (isObj(properties)) merged.properties = { ...(merged.properties as Obj | undefined), ...properties };
    if (Array.isArray(required)) merged.required = [...new Set([...((merged.required as unknown[] | undefined) ?? []), ...required])];
  }
  return merged;
}

/** The schema `uri` points to within `root` ('#', '#/$defs/x', '#/definitions/x', any JSON pointer), or undefined. */
function resolve(root: Schema, uri: string): unknown {
  if (uri === '#') return root;
  if (!uri.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of uri.slice(2).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(at) && !Array.isArray(at)) return undefined;
    at = (at as Obj)[part];
    if (at === undefined) return undefined;
  }
  return at;
}

