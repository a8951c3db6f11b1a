import { describe, expect, it } from 'vitest';
import { toToolName, namespacedName } from './tool-names.js';
import { validateArguments } from './validate-arguments.js';
import { jsonSchemaInput } from './json-schema-input.js';

// A schema as an MCP server lists it (draft 2020-12, nested, closed objects).
const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    days: { type: 'integer', minimum: 1 },
    units: { enum: ['metric', 'imperial'] },
    stops: { type: 'array', items: { type: 'object', properties: { at: { type: 'string' } }, required: ['at'], additionalProperties: false } },
  },
  required: ['city'],
  additionalProperties: false,
};
const { $schema: _, ...parameters } = schema;
const check = (args: unknown) => validateArguments(jsonSchemaInput(schema).input, parameters, args);

describe('an MCP tool’s arguments, checked against its JSON Schema', () => {
  it('coerces as for managed tools, then accepts', async () => {
    expect(await check({ city: 'Oslo', days: '3', stops: { at: 'Bergen' } })).toEqual({ ok: true, value: { city: 'Oslo', days: 3, stops: [{ at: 'Bergen' }] } });
  });

  it('reports each problem where it is, once', async () => {
    const result = await check({ days: 0, units: 'kelvin', stops: [{ at: [], extra: true }], color: 'red' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((i) => i.path).sort()).toEqual(['city', 'color', 'days', 'stops.0.at', 'stops.0.extra', 'units']);
    expect(!result.ok && result.issues.find((i) => i.path === 'city')?.message).toBe('required');
    expect(!result.ok && result.issues.filter((i) => i.path === 'color').map((i) => i.message)).toEqual(['unexpected field']);
  });

  it('refuses reserved keys whatever the schema allows', async () => {
    const open = { type: 'object' };
    const result = await validateArguments(jsonSchemaInput(open).input, open, JSON.parse('{"__proto__": {"x": 1}}'));
    expect(result.ok).toBe(false);
  });
});

describe('tool names from MCP servers', () => {
  it('become names every model family accepts', () => {
    expect(toToolName('files/read.v2')).toBe('files_read_v2');
    expect(toToolName('3d-print')).toBe('_3d-print');
    expect(toToolName('x'.repeat(128))).toHaveLength(64);
    expect(namespacedName('github.com', 'search')).toBe('github_com_search');
  });
});
