// What the model reads of a page tool's result. `executeTool` gives text:
// JSON for what the tool returned as an object, the value itself as text
// otherwise. Tools written for MCP clients return MCP's `{ content: [...] }`:
// that reads as an MCP server's result does, and its `isError` is a failure.
import type { CallToolResult } from '../mcp/sdk.js';
import { modelReadable, textOf } from '../mcp/mcp-result.js';

type ReadResult = { ok: true; value: unknown } | { ok: false; detail: string };

export function readWebMcpResult(text: string | null): ReadResult {
  if (text === null) return { ok: true, value: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: true, value: text };
  }
  if (!isCallToolResult(parsed)) return { ok: true, value: parsed };
  if (parsed.isError === true) return { ok: false, detail: textOf(parsed) || 'the tool reported an error' };
  return { ok: true, value: modelReadable(parsed) };
}

function isCallToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const content = (value as { content?: unknown }).content;
  return Array.isArray(content) && content.every((b) => typeof b === 'object' && b !== null && typeof (b as { type?: unknown }).type === 'string');
}
