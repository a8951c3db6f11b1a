// A GGUF's chat template is judged from the file's header, before the
// weights: one that renders no conversation at all is refused then, with a
// ModelLoadError that says why, not after the download by every send's
// ChatTemplateError.
import { describe, expect, it } from 'vitest';
import { tinyGgufBytes } from '../../scripts/tiny-gguf.mjs';
import { isModelLoadError } from '../errors/index.js';
import { blobSource, readGgufHeader, type ByteSource } from './gguf-header.js';
import { ggufTemplate } from './gguf-template.js';
import type { GgufSpec } from '../rpc/worker-protocol.js';

const CHATML = "{% for m in messages %}{{ '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** A Blob's bytes a chunk at a time, counting how far the reader went. */
function counted(blob: Blob): { source: ByteSource; read: () => number } {
  const inner = blobSource(blob, 64 * 1024);
  let read = 0;
  return {
    source: {
      async next() {
        const chunk = await inner.next();
        read += chunk.byteLength;
        return chunk;
      },
      close: () => inner.close(),
    },
    read: () => read,
  };
}

/** What loading the file's header and preparing its template gives: the error's fields, and how much of the file was read. */
async function prepare(chatTemplate: string, spec: Partial<GgufSpec> = {}) {
  const bytes = tinyGgufBytes({ chatTemplate });
  const { source, read } = counted(new Blob([new Uint8Array(bytes)]));
  const header = await readGgufHeader(source);
  try {
    ggufTemplate({ kind: 'gguf', modelId: 'wild.gguf', ...spec }, spec.chatTemplate ?? header.chatTemplate!);
    return { loaded: true, read: read(), size: bytes.length };
  } catch (error) {
    return { error: isModelLoadError(error) ? { reason: error.reason, retryable: error.retryable } : String(error), read: read(), size: bytes.length };
  }
}

describe('ggufTemplate refuses, from the header, a template that renders nothing', () => {
  it('one that raises on every conversation: not retryable, in the template’s own words', async () => {
    const result = await prepare(`{{ raise_exception('This GGUF was converted without its template') }}${CHATML}`);
    expect(result.error).toEqual({ reason: expect.stringMatching(/chat template \(tokenizer\.chat_template\) cannot be rendered.*This GGUF was converted without its template.*pass a chatTemplate/), retryable: false });
    // Only the metadata was read: the weights after it never were.
    expect(result.read).toBeLessThan(result.size / 2);
  });

  it('one that uses Python’s `%` on strings, which the Jinja engine cannot run', async () => {
    const result = await prepare(`{{ '%s' % 'x' }}${CHATML}`);
    expect(result.error).toEqual({ reason: expect.stringMatching(/chat template \(tokenizer\.chat_template\) cannot be rendered.*Unknown operator "%".*pass a chatTemplate/), retryable: false });
    expect(result.read).toBeLessThan(result.size / 2);
  });

  it('the app’s chatTemplate is named when it is the one that fails, and one that renders loads', async () => {
    const failing = await prepare(CHATML, { chatTemplate: "{{ raise_exception('no') }}" });
    expect(failing.error).toEqual({ reason: expect.stringMatching(/^the chatTemplate given cannot be rendered/), retryable: false });
    expect((await prepare(`{{ '%s' % 'x' }}`, { chatTemplate: CHATML, family: 'hermes' })).loaded).toBe(true);
  });

  it('a template that refuses only some conversations loads (its refusals are the sends’ ChatTemplateErrors)', async () => {
    const picky = `{% if messages | length > 2 %}{{ raise_exception('At most two messages') }}{% endif %}${CHATML}`;
    expect((await prepare(picky)).loaded).toBe(true);
  });
});
