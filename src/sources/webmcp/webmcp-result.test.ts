// What the model reads of a page tool's result. The text comes from the
// polyfill's own serializer (@mcp-b/webmcp-polyfill, the one its
// executeTool() uses, as Chromium's does): what a tool returns, as the
// browser hands it over.
import { serializeChromeToolResult } from '@mcp-b/webmcp-polyfill/schema';
import { describe, expect, it } from 'vitest';
import { readWebMcpResult } from './webmcp-result.js';

const read = (returned: unknown) => readWebMcpResult(serializeChromeToolResult(returned));

describe('readWebMcpResult', () => {
  it('keeps an object or a list the tool returned as JSON data, not as text about JSON', () => {
    expect(read({ temperature: 21, unit: 'C' })).toEqual({ ok: true, value: { temperature: 21, unit: 'C' } });
    expect(read([1, 'two'])).toEqual({ ok: true, value: [1, 'two'] });
  });

  it('keeps text as text', () => {
    expect(read('Sunny in Oslo')).toEqual({ ok: true, value: 'Sunny in Oslo' });
  });

  it('reads a tool written for MCP clients as an MCP server’s result: its text, its structured content', () => {
    expect(read({ content: [{ type: 'text', text: 'Saved.' }] })).toEqual({ ok: true, value: 'Saved.' });
    expect(read({ content: [{ type: 'text', text: '{"count":2}' }], structuredContent: { count: 2 } })).toEqual({ ok: true, value: { count: 2 } });
  });

  it('describes an image by its type and size instead of pouring base64 into the prompt', () => {
    const png = Buffer.from('12345678').toString('base64');
    expect(read({ content: [{ type: 'text', text: 'The chart:' }, { type: 'image', mimeType: 'image/png', data: png }] })).toEqual({ ok: true, value: ['The chart:', { image: 'image/png', bytes: 8 }] });
  });

  it('an MCP result with isError is a failure, with the tool’s own words', () => {
    expect(read({ content: [{ type: 'text', text: 'The cart is empty.' }], isError: true })).toEqual({ ok: false, detail: 'The cart is empty.' });
    expect(read({ content: [], isError: true })).toEqual({ ok: false, detail: 'the tool reported an error' });
  });

  it('a tool that returned nothing: what the browser says instead (Chromium may give null)', () => {
    expect(readWebMcpResult(null)).toEqual({ ok: true, value: null });
    expect(read(undefined)).toEqual({ ok: true, value: 'undefined' });
  });
});
