// Tool input schemas as servers write them, for the tests that check no
// schema can break a run (src/sources/schema-corpus.test.ts). Each is the shape a
// real producer emits, with a valid argument object for it. Where they come
// from:
// - zod 4's toJSONSchema (this repo's devDependency), as the MCP TypeScript SDK
//   lists a zod tool: `z.string().regex(/^[a-z]+\-[0-9]+$/)` keeps the regex's
//   source, an identity escape `\-` that ECMA-262 allows only without the `u` flag;
// - Pydantic's model_json_schema (FastMCP, the Python SDK's servers):
//   `$defs` + `$ref: '#/$defs/…'`, `anyOf: [{…}, {type: 'null'}]` for Optional,
//   `title` on every property, Python `re` patterns (`\:`, `\/`, `\_`, lone `{`);
// - the JSON Schema Test Suite (json-schema-org/JSON-Schema-Test-Suite,
//   tests/draft2020-12 and tests/draft7: ref.json, defs.json, id.json,
//   dynamicRef.json, prefixItems.json, unevaluatedProperties.json,
//   dependentRequired.json, if-then-else.json, pattern.json,
//   patternProperties.json, propertyNames.json, format.json): the keywords
//   and the shapes of their cases (recursion through `$ref: '#'`, `$id`s,
//   `definitions` under draft-07, refs to other documents);
// - patterns common in public APIs' OpenAPI documents: lookaheads for
//   passwords, `\p{L}` for names, `\b`, backreferences, `(?i)`.
export interface CorpusSchema {
  name: string;
  schema: Record<string, unknown>;
  /** Arguments the schema accepts (as its producer means it). */
  valid: Record<string, unknown>;
  /** Where the checks leave something out (JSON Pointers the warnings start with); none for a schema they use whole. */
  skipped?: string[];
}

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

/**
 * Real tools' schemas with a correct call each (the ground truth), one per
 * way a grammar once forbade such a call (issue 36): every call format must
 * let a model write it and read it back the same.
 */
export const REAL_TOOL_CALLS: CorpusSchema[] = [
  {
    // The reference GitHub MCP server (modelcontextprotocol/servers, src/github,
    // operations/issues.ts: ListIssuesOptionsSchema through zod-to-json-schema).
    name: 'GitHub MCP list_issues: string enums (Qwen3.5 XML writes them bare)',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      ...object(
        {
          owner: { type: 'string' },
          repo: { type: 'string' },
          direction: { type: 'string', enum: ['asc', 'desc'] },
          labels: { type: 'array', items: { type: 'string' } },
          page: { type: 'number' },
          per_page: { type: 'number' },
          since: { type: 'string' },
          sort: { type: 'string', enum: ['created', 'updated', 'comments'] },
          state: { type: 'string', enum: ['open', 'closed', 'all'] },
        },
        { required: ['owner', 'repo'], additionalProperties: false },
      ),
    },
    valid: { owner: 'octocat', repo: 'hello-world', direction: 'desc', labels: ['bug'], sort: 'updated', state: 'closed' },
  },
  {
    // vLLM's Qwen3-Coder parser tests (tests/tool_parsers/test_qwen3coder_tool_parser.py,
    // sample_tools): its get_current_weather, and the call its cases read
    // (src/conformance/peer-cases/vllm.ts: `unit` written bare, `fahrenheit`).
    // vLLM's has no `type: 'object'`, which MCP requires (see VLLM_WEATHER_UNTYPED).
    name: "vLLM's Qwen3-Coder test tool: get_current_weather with a unit enum",
    schema: {
      type: 'object',
      properties: { city: { type: 'string', description: 'The city name' }, state: { type: 'string', description: 'The state code' }, unit: { type: 'string', enum: ['fahrenheit', 'celsius'] } },
      required: ['city', 'state'],
    },
    valid: { city: 'Dallas', state: 'TX', unit: 'fahrenheit' },
  },
  {
    // Pydantic (FastMCP) writes `Optional[str] = None` and `Optional[Literal[...]] = None`
    // as anyOf with null; Qwen3.5's template writes the string bare, None as `null`.
    name: 'Pydantic Optional[str] and Optional[Literal]: a string or null',
    schema: object(
      {
        query: { title: 'Query', type: 'string' },
        language: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Language' },
        sort: { anyOf: [{ enum: ['stars', 'forks'], type: 'string' }, { type: 'null' }], default: null, title: 'Sort' },
      },
      { required: ['query'], title: 'search_reposArguments' },
    ),
    valid: { query: 'tabagent', language: 'TypeScript', sort: 'stars' },
  },
  {
    name: 'Pydantic Optional[str] and Optional[Literal]: null written',
    schema: object(
      {
        query: { title: 'Query', type: 'string' },
        language: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Language' },
        sort: { anyOf: [{ enum: ['stars', 'forks'], type: 'string' }, { type: 'null' }], default: null, title: 'Sort' },
      },
      { required: ['query'], title: 'search_reposArguments' },
    ),
    valid: { query: 'tabagent', language: null, sort: null },
  },
  {
    // A hand-written server's schema (the low-level MCP SDKs take any
    // inputSchema): `required` names a key that `properties` never declares.
    name: 'required keys with no properties declared for them',
    schema: object({ filter: { type: 'object', required: ['field', 'value'] } }, { required: ['query', 'filter'] }),
    valid: { query: 'status report', filter: { field: 'status', value: 'open' } },
  },
  {
    // A browser-automation MCP server's navigate tool: a URL that starts with
    // http:// or https:// (a JSON Schema pattern searches; it is anchored only where it says so).
    name: 'browser navigate: an unanchored end in `^https?://`',
    schema: object({ url: { type: 'string', minLength: 1, maxLength: 8192, pattern: '^https?://' }, label: { type: 'string', pattern: '[a-z]' } }, { required: ['url'], additionalProperties: false }),
    valid: { url: 'https://example.com/docs?q=1&page=2', label: 'Docs page 2' },
  },
  {
    // A mailer's schedule settings: IANA time zone names as an enum (a `/`
    // in an enum string, which xgrammar writes only as `\/`).
    name: 'schedule: IANA time zones as an enum (a `/` in an enum value)',
    schema: object({ sendTime: { type: 'string', format: 'time' }, timezone: { type: 'string', title: 'Timezone', enum: ['Europe/London', 'UTC'], default: 'Europe/London' }, mimeType: { const: 'text/html' } }, { required: ['timezone'] }),
    valid: { timezone: 'Europe/London', mimeType: 'text/html' },
  },
  {
    // Pydantic (FastMCP) leaves additionalProperties unset: an HTTP request
    // tool whose headers declare one key. The grammar holds an object to the
    // keys it declares unless it says otherwise (docs/tools.md), and the
    // validator agrees (UNDECLARED_KEY below).
    name: 'Pydantic HTTP request: headers with additionalProperties unset',
    schema: object({ url: { title: 'Url', type: 'string' }, headers: { title: 'Headers', type: 'object', properties: { 'Content-Type': { type: 'string' } } } }, { required: ['url'], title: 'requestArguments' }),
    valid: { url: 'https://api.example.com/v1/items', headers: { 'Content-Type': 'application/json' } },
  },
];

/** The last case's call with a key its headers do not declare: refused by the grammar and the validator alike. */
export const UNDECLARED_KEY = { call: { url: 'https://api.example.com/v1/items', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer abc' } }, path: 'headers.Authorization' };

export const SCHEMA_CORPUS: CorpusSchema[] = [
  {
    name: 'zod regex with an identity escape (not valid under the u flag)',
    schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...object({ ticket: { type: 'string', pattern: '^[a-z]+\\-[0-9]+$' } }, { required: ['ticket'], additionalProperties: false }) },
    valid: { ticket: 'abc-12' },
  },
  {
    name: 'Pydantic: $defs, $ref, Optional as anyOf null, titles, Python patterns',
    schema: {
      $defs: {
        Address: object({ street: { title: 'Street', type: 'string' }, zip: { title: 'Zip', type: 'string', pattern: '^\\d{5}(\\-\\d{4})?$' } }, { required: ['street', 'zip'], title: 'Address' }),
      },
      ...object(
        {
          url: { title: 'Url', type: 'string', pattern: '^https?\\:\\/\\/[\\w\\-\\.]+(\\:\\d+)?\\/?.*$' },
          handle: { title: 'Handle', type: 'string', pattern: '^@[a-z\\_0-9]{1,15}$' },
          address: { $ref: '#/$defs/Address' },
          note: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Note' },
        },
        { required: ['url', 'address'], title: 'CreateContact' },
      ),
    },
    valid: { url: 'https://example.com:8080/a', handle: '@some_one', address: { street: 'Main St', zip: '12345-6789' }, note: null },
  },
  {
    name: 'a lookahead (password rules) and a lookbehind',
    schema: object({ password: { type: 'string', pattern: '^(?=.*[A-Z])(?=.*\\d).{8,}$' }, price: { type: 'string', pattern: '(?<=\\$)\\d+' } }, { required: ['password'] }),
    valid: { password: 'Secret123', price: '$12' },
  },
  {
    name: 'Unicode property escapes, a word boundary, a backreference, an inline flag',
    schema: object({
      name: { type: 'string', pattern: "^[\\p{L} '-]+$" },
      word: { type: 'string', pattern: '\\bcat\\b' },
      twice: { type: 'string', pattern: '^(a|b)\\1$' },
      any_case: { type: 'string', pattern: '(?i)^yes$' },
    }),
    valid: { name: 'Zoë', word: 'a cat here', twice: 'aa' },
    // JavaScript has no `(?i)` (only the scoped `(?i:…)`): the validator cannot check that one.
    skipped: ['#/properties/any_case/pattern'],
  },
  {
    name: 'Annex B only: a lone brace and an octal escape',
    schema: object({ json: { type: 'string', pattern: '^{.*}$' }, tab: { type: 'string', pattern: '^a\\011b$' } }),
    valid: { json: '{"a":1}' },
    skipped: ['#/properties/json/pattern', '#/properties/tab/pattern'],
  },
  {
    name: 'a pattern that is no regular expression at all',
    schema: object({ broken: { type: 'string', pattern: '([a-z]' } }),
    valid: { broken: 'x' },
    skipped: ['#/properties/broken/pattern'],
  },
  {
    name: 'formats',
    schema: object({ email: { type: 'string', format: 'email' }, site: { type: 'string', format: 'uri' }, at: { type: 'string', format: 'date-time' }, id: { type: 'string', format: 'uuid' }, re: { type: 'string', format: 'regex' }, odd: { type: 'string', format: 'x-custom' } }),
    valid: { email: 'a@example.com', site: 'https://example.com/', at: '2025-01-02T03:04:05Z', id: '123e4567-e89b-12d3-a456-426614174000', odd: 'anything' },
  },
  {
    name: 'draft-07: definitions and $ref',
    schema: { $schema: 'http://json-schema.org/draft-07/schema#', definitions: { tag: { type: 'string', maxLength: 20 } }, ...object({ tags: { type: 'array', items: { $ref: '#/definitions/tag' } } }) },
    valid: { tags: ['a', 'b'] },
  },
  {
    name: 'recursion: a tree through $ref to the root and to $defs',
    schema: {
      $defs: { node: object({ label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, { required: ['label'] }) },
      ...object({ root: { $ref: '#/$defs/node' }, parent: { $ref: '#' } }),
    },
    valid: { root: { label: 'a', children: [{ label: 'b', children: [] }] } },
  },
  {
    name: '$id that is not a URL',
    schema: { $id: 'http://[bad', ...object({ q: { type: 'string' } }) },
    valid: { q: 'x' },
    skipped: ['#/$id'],
  },
  {
    name: '$id as a name, a URN, and an anchor',
    schema: { $id: 'search tool', ...object({ q: { $id: 'urn:example:query', type: 'string' }, limit: { $anchor: 'limit', type: 'integer' }, again: { $ref: '#limit' } }) },
    valid: { q: 'x', limit: 3, again: 4 },
  },
  {
    name: 'two subschemas with one $id',
    schema: object({ a: { $id: 'https://example.com/same', type: 'string' }, b: { $id: 'https://example.com/same', type: 'number' } }),
    valid: { a: 'x', b: 1 },
    skipped: ['#'],
  },
  {
    name: '$ref to another document and to a missing $def',
    schema: object({ address: { $ref: 'https://example.com/schemas/address.json' }, kind: { $ref: '#/$defs/missing' }, q: { type: 'string' } }, { required: ['q'] }),
    valid: { address: { city: 'Oslo' }, kind: 'x', q: 'y' },
    skipped: ['#/properties/address/$ref', '#/properties/kind/$ref'],
  },
  {
    name: '2020-12 keywords: prefixItems, unevaluatedProperties, dependentRequired, if/then/else, const, type lists, $dynamicRef',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $dynamicAnchor: 'meta',
      ...object(
        {
          point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
          card: { type: 'string' },
          billing: { type: 'string' },
          mode: { const: 'fast' },
          maybe: { type: ['string', 'null'] },
          kind: { enum: ['a', 'b', null, 1] },
          nested: { $dynamicRef: '#meta' },
        },
        { dependentRequired: { card: ['billing'] }, if: { properties: { mode: { const: 'fast' } } }, then: { required: ['mode'] }, unevaluatedProperties: false },
      ),
    },
    valid: { point: [1, 2], card: '4111', billing: 'x', mode: 'fast', maybe: null, kind: null },
  },
  {
    name: 'patternProperties and propertyNames with identity escapes',
    schema: { type: 'object', patternProperties: { '^x\\-': { type: 'string' } }, propertyNames: { pattern: '^[a-z\\-]+$' }, additionalProperties: false },
    // A key the pattern finds a match in, as JSON Schema reads `^x\-` (schema-meaning.ts opens its end for the grammar engines).
    valid: { 'x-rate': 'abc' },
  },
  {
    name: 'property names that are not words',
    schema: object({ 'user name': { type: 'string' }, 'a.b': { type: 'number' }, $filter: { type: 'string' }, '@type': { type: 'string' }, 'say "hi"': { type: 'string' }, 'two\nlines': { type: 'string' }, 'back\\slash': { type: 'string' } }),
    valid: { 'user name': 'x', 'a.b': 1, '@type': 't' },
  },
  {
    name: 'a schema that is mostly wrong (unknown type, a string bound)',
    schema: object({ a: { type: 'strng' }, b: { type: 'string', minLength: '3' } }),
    valid: {},
  },
  ...REAL_TOOL_CALLS,
];
