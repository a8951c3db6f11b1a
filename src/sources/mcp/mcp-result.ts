// What the model reads of an MCP tool's result. Small on-device models read
// text only: text stays text, structured content stays JSON, and an image,
// audio or binary resource is described (its type and size) rather than
// poured into the prompt as base64. An app that wants more passes `toModel`.
import type { CallToolResult, ContentBlock } from './sdk.js';

export function modelReadable(result: CallToolResult): unknown {
  const blocks = result.content ?? [];
  if (result.structuredContent !== undefined) {
    // The spec asks servers to repeat structured content as text: one copy is enough.
    const rest = blocks.filter((b) => !(b.type === 'text' && sameJson(b.text, result.structuredContent)));
    return rest.length ? { structured: result.structuredContent, content: rest.map(describe) } : result.structuredContent;
  }
  if (blocks.length === 1 && blocks[0]!.type === 'text') return blocks[0]!.text;
  return blocks.map(describe);
}

/** The text of a result's text blocks: what an error result says. */
export function textOf(result: CallToolResult): string {
  return (result.content ?? [])
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n');
}

function describe(block: ContentBlock): unknown {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return { [block.type]: block.mimeType, bytes: base64Bytes(block.data) };
    case 'resource_link':
      return { link: block.uri, name: block.name, ...(block.mimeType ? { mimeType: block.mimeType } : {}) };
    case 'resource': {
      const r = block.resource;
      return 'text' in r && typeof r.text === 'string'
        ? { resource: r.uri, text: r.text }
        : { resource: r.uri, ...(r.mimeType ? { mimeType: r.mimeType } : {}), bytes: base64Bytes(String((r as { blob?: unknown }).blob ?? '')) };
    }
    default:
      return { type: (block as { type: string }).type };
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
