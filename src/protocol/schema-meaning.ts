// JSON Schema's meaning, written the way the grammar engines read schemas
// (xgrammar 0.1.27's converter, which json-schema-gbnf.ts follows), where
// they read a keyword otherwise. grammar-schema.ts applies these to every
// subschema it hands them; the validator reads the schema as written.
// - A `pattern` searches (ECMA-262 `test`, JSON-Schema-Test-Suite
//   pattern.json: "matches a substring"); the engines match it against the
//   whole string and ignore `^`/`$`. So an end the pattern leaves open is
//   opened: `^https?://` becomes `^https?://[…]*$`.
// - `required` may name a key `properties` does not declare; the engines
//   admit only declared keys (strict mode), so such a key could never be
//   written. It is declared, with the schema of other keys (any value when
//   unset), in the place `required` gives it.
// - A string in `enum`/`const` is written by xgrammar as picojson writes it
//   (`Europe\/London`, never the bare `/` models write) and, in Qwen's XML
//   parameters, as quoted JSON (Qwen3.5's template and parser write strings
//   bare). As a string pattern it is the same set of values, written quoted
//   in JSON and bare in XML by both engines.
// - A string's `minLength`/`maxLength` is read by xgrammar as that many
//   characters written raw, never escaped: a bounded string could not hold
//   `"`, `\` or a line break (`z.string().max(200)`). A number's bounds make
//   it refuse more than six decimals (`z.number().min(-90).max(90)` and
//   48.8583701). Both are left to the argument check, which reads them.
// - A `format` is a pattern where the grammar writes it out (date, time,
//   date-time with RFC 3339's lowercase `t` and `z`, uuid, ipv4), and left
//   to the argument check otherwise: xgrammar's own rules refused valid
//   values (a URI with an IPv6 host) where the GBNF admitted any string.
// - An array's items and an object's keys are open unless the schema closes
//   them; the engines close them once a schema says more than its type
//   (xgrammar's strict mode): `{type: 'array', minItems: 1}` admitted no
//   item at all, and aborted xgrammar's WebAssembly. They are said open. (An
//   object that names its keys stays closed to others: docs/tools.md.)

type Obj = Record<string, unknown>;

// The formats the grammar writes out, as regular expressions (RFC 3339 date and time, RFC 4122 UUID, dotted-quad IPv4).
const DATE = '\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])';
const TIME = '([01]\\d|2[0-3]):[0-5]\\d:([0-5]\\d|60)(\\.\\d+)?([Zz]|[+-]([01]\\d|2[0-3]):[0-5]\\d)';
const OCTET = '(25[0-5]|2[0-4]\\d|[01]?\\d?\\d)';
export const FORMAT_PATTERNS: Readonly<Record<string, string>> = {
  date: DATE,
  time: TIME,
  'date-time': `${DATE}[Tt]${TIME}`,
  uuid: '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}',
  ipv4: `(${OCTET}\\.){3}${OCTET}`,
};

/**
 * What an open end of a pattern may hold: any character a JSON string holds
 * unescaped (xgrammar matches the pattern against the raw text between the
 * quotes, so `.` would let it write a bare `"`; our GBNF reads `.` inside a
 * JSON string as exactly this class).
 */
const OPEN_END = '[^"\\\\\\x00-\\x1f]*';

/** `pattern` (a `u`-mode regular expression) anchored at both ends, with what JSON Schema lets stand on an open end. */
export function searchingPattern(pattern: string): string {
  const alternatives = topAlternatives(pattern).map((alternative) => {
    let body = alternative;
    const start = body.startsWith('^');
    if (start) body = body.slice(1);
    const end = endsWithAnchor(body);
    if (end) body = body.slice(0, -1);
    return `${start ? '' : OPEN_END}${body}${end ? '' : OPEN_END}`;
  });
  // One pair of anchors around them all: xgrammar misreads `$|^` between alternatives.
  return alternatives.length === 1 ? `^${alternatives[0]}$` : `^(?:${alternatives.join('|')})$`;
}

/** The alternatives of `pattern` outside any group or class. */
function topAlternatives(pattern: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) out.push(pattern.slice(from, i)), (from = i + 1);
  }
  out.push(pattern.slice(from));
  return out;
}

/** A `$` that is an anchor: last, and not escaped. */
function endsWithAnchor(body: string): boolean {
  if (!body.endsWith('$')) return false;
  let slashes = 0;
  for (let i = body.length - 2; i >= 0 && body[i] === '\\'; i--) slashes++;
  return slashes % 2 === 0;
}

/** `node` with every `required` key declared in `properties` (the same object when there is none to add). */
export function declaringRequired(node: Obj): Obj {
  if (!Array.isArray(node.required) || !isObjectSchema(node)) return node;
  // There the engines key objects by pattern and leave `properties` aside.
  if ('patternProperties' in node || 'propertyNames' in node) return node;
  const properties = isObj(node.properties) ? node.properties : {};
  const missing = (node.required as string[]).filter((key) => !Object.hasOwn(properties, key));
  if (missing.length === 0) return node;
  const other = 'additionalProperties' in node ? node.additionalProperties : 'unevaluatedProperties' in node ? node.unevaluatedProperties : true;
  // No value fits such a key: JSON Schema admits no object, and the grammar stays as strict.
  if (other === false) return node;
  const value = other === true || !isObj(other) ? {} : other;
  // Each where `required` lists it: before the next declared key it names
  // (the engines hold keys to their declared order). One pass each way: a
  // server's schema may require thousands.
  const before = new Map<string, string[]>();
  const last: string[] = [];
  let next: string | undefined;
  for (const key of [...(node.required as string[])].reverse()) {
    if (Object.hasOwn(properties, key)) next = key;
    else if (next === undefined) last.unshift(key);
    else before.set(next, [key, ...(before.get(next) ?? [])]);
  }
  const order = [...new Set([...Object.keys(properties).flatMap((key) => [...(before.get(key) ?? []), key]), ...last])];
  return { ...node, properties: Object.fromEntries(order.map((key) => [key, Object.hasOwn(properties, key) ? properties[key] : value])) };
}

/** `node` with `items` or `additionalProperties` said open where JSON Schema leaves them so (the same object when neither is). */
export function openWhereUnsaid(node: Obj): Obj {
  // A bare `{type}` is open to the engines already (their basic rules).
  if (!Object.keys(node).some((key) => key !== 'type' && !ANNOTATIONS.includes(key))) return node;
  const items = hasType(node, 'array') && !('items' in node) && !('unevaluatedItems' in node);
  // An object that names its keys (`properties`, `required`) stays closed to others, as the argument check reads it.
  const names = 'properties' in node || (Array.isArray(node.required) && node.required.length > 0);
  const keys = hasType(node, 'object') && !names && !['patternProperties', 'additionalProperties', 'unevaluatedProperties', 'propertyNames'].some((key) => key in node);
  if (!items && !keys) return node;
  return { ...node, ...(items ? { items: true } : {}), ...(keys ? { additionalProperties: true } : {}) };
}

function hasType(node: Obj, type: string): boolean {
  return node.type === type || (Array.isArray(node.type) && node.type.includes(type));
}

function isObjectSchema(node: Obj): boolean {
  return node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || isObj(node.properties);
}

/** Strings JSON writes unescaped, so the pattern reads the same in a JSON string and in XML text. */
const PLAIN = /^[^"\\\u0000-\u001f]*$/;
const ANNOTATIONS = ['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment'];

/** `node` with the plain strings of its `enum`/`const` as a string pattern (the same object when there are none). */
export function choicesAsPattern(node: Obj): Obj {
  // The engines read `$ref` before `const`/`enum`.
  if ('$ref' in node) return node;
  const values = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (!values) return node;
  if (node.type !== undefined && !(node.type === 'string' || (Array.isArray(node.type) && node.type.includes('string')))) return node;
  const plain = values.filter((v): v is string => typeof v === 'string' && PLAIN.test(v));
  if (plain.length === 0) return node;
  const rest = values.filter((v) => !(typeof v === 'string' && PLAIN.test(v)));
  const strings = { type: 'string', pattern: `^(?:${plain.map(escapeRegex).join('|')})$` };
  // Only annotations stay: `enum` came first, so nothing else counted.
  const kept = Object.fromEntries(ANNOTATIONS.filter((k) => k in node).map((k) => [k, node[k]]));
  return rest.length === 0 ? { ...kept, ...strings } : { ...kept, anyOf: [strings, { enum: rest }] };
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
