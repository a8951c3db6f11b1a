// An export is outside input: whatever it holds, importing it ends in a
// stored chat or InvalidChatExportError, in bounded time (FAULTS S8).
import { describe, expect, it } from 'vitest';
import { isInvalidChatExportError } from '../errors/index.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './chat-export.js';
import { parseChatExport } from './parse-chat-export.js';

const settings = { maxToolHops: 5, maxConcurrentTools: 1, toolChoice: 'auto', maxResultChars: 8000 };
const file = (args: string) =>
  `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":${JSON.stringify(EXPORT_VERSION)},"chat":{"id":"c","title":"t","createdAt":1,"updatedAt":1,"settings":${JSON.stringify(settings)},"tools":[],"answers":[]},"messages":[{"role":"user","content":"hi","createdAt":1},{"role":"assistant","raw":"","text":"","reasoning":"","toolCalls":[{"id":"x","name":"f","arguments":${args}}],"finishReason":"stop","createdAt":1}]}`;
const nested = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;

describe('parseChatExport', () => {
  it('reads call arguments nested as deep as real data goes', () => {
    expect(parseChatExport(file(nested(100))).messages).toHaveLength(2);
  });

  it.each([1_000, 10_000, 100_000])('refuses call arguments nested %i deep with InvalidChatExportError (not a RangeError)', (depth) => {
    let error: unknown;
    try {
      parseChatExport(file(nested(depth)));
    } catch (caught) {
      error = caught;
    }
    expect(isInvalidChatExportError(error), String(error)).toBe(true);
  });
});
