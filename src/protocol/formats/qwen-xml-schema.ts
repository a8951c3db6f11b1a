// The schema of a Qwen3.5 call's XML parameters, as xgrammar's
// `qwen_xml_parameter` must read it to admit what Qwen3.5 writes. Its
// template writes a string value bare and anything else as JSON (None as
// `null`); xgrammar writes a parameter bare only where its schema is a
// string, and as JSON where it is a union, so a string that may be null
// (Pydantic's `Optional[str]`, zod's `.nullable()`) could only be written
// quoted, and the quotes were read as part of the value. Such a parameter
// becomes a string that may also read `null`, which the call reader reads
// as null (qwen-xml.ts, as vLLM's Qwen3-Coder parser does).
import type { JsonSchema } from '../../shared/json.js';

type Obj = Record<string, unknown>;

/** `schema` (a tool's parameters, as grammar-schema.ts made them) for `qwen_xml_parameter`. */
export function xmlParameters(schema: JsonSchema): JsonSchema {
  // xgrammar 0.1.27 aborts its WebAssembly on qwen_xml_parameter without the
  // type, which OpenAI-style tools (vLLM's own test tools) often leave out.
  // Arguments are an object whatever it says.
  const typed = schema.type === 'object' ? schema : { ...schema, type: 'object' };
  if (!isObj(typed.properties)) return typed;
  const before = typed.properties;
  const after = Object.fromEntries(Object.entries(before).map(([key, p]) => [key, bareNullable(p)]));
  return Object.keys(after).some((key) => after[key] !== before[key]) ? { ...typed, properties: after } : typed;
}

/** A string-or-null parameter as one string that may read `null`; anything else as it is. */
function bareNullable(p: unknown): unknown {
  if (!isObj(p) || '$ref' in p || 'const' in p || 'enum' in p) return p;
  if (Array.isArray(p.type) && p.type.length === 2 && p.type.includes('string') && p.type.includes('null')) return orNull({ ...p, type: 'string' }, p);
  const branches = p.anyOf ?? p.oneOf;
  if (!Array.isArray(branches) || branches.length !== 2) return p;
  const string = branches.find(isString);
  if (!string || !branches.some(isNull)) return p;
  const { anyOf: _a, oneOf: _o, ...rest } = p;
  return orNull({ ...rest, ...(string as Obj) }, p);
}

/** `string` admitting the text `null` too; `fallback` where its length bounds or format might not. */
function orNull(string: Obj, fallback: unknown): unknown {
  if ('format' in string || 'minLength' in string || 'maxLength' in string) return fallback;
  if (typeof string.pattern !== 'string') return string;
  // grammar-schema.ts anchors every pattern at both ends (schema-meaning.ts).
  return { ...string, pattern: `^(?:${string.pattern.slice(1, -1)}|null)$` };
}

function isString(branch: unknown): boolean {
  return isObj(branch) && branch.type === 'string' && !('$ref' in branch) && !('const' in branch) && !('enum' in branch);
}

function isNull(branch: unknown): boolean {
  return isObj(branch) && (branch.type === 'null' || (Array.isArray(branch.enum) && branch.enum.length === 1 && branch.enum[0] === null) || ('const' in branch && branch.const === null));
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
