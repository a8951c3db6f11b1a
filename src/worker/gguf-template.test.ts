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
      size: inner.size,
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

/** What preparing a template gives: loaded, or the error's fields. */
function prepare(spec: Pick<GgufSpec, 'chatTemplate' | 'family'>, chatTemplate: string) {
  try {
    ggufTemplate({ modelId: 'wild.gguf', ...spec }, chatTemplate);
    return { loaded: true };
  } catch (error) {
    return { error: isModelLoadError(error) ? { reason: error.reason, retryable: error.retryable } : String(error) };
  }
}

/** A GGUF with `chatTemplate` (generated: a second or so): its header read and its template prepared, and how much of the file was read. */
async function fromHeader(chatTemplate: string) {
  const bytes = tinyGgufBytes({ chatTemplate });
  const { source, read } = counted(new Blob([new Uint8Array(bytes)]));
  const header = await readGgufHeader(source, 'wild.gguf');
  return { ...prepare({}, header.chatTemplate!), read: read(), size: bytes.length };
}

describe('ggufTemplate refuses, from the header, a template that renders nothing', () => {
  it('one that raises on every conversation: not retryable, in the template’s own words', { timeout: 60_000 }, async () => {
    const result = await fromHeader(`{{ raise_exception('This GGUF was converted without its template') }}${CHATML}`);
    expect(result.error).toEqual({ reason: expect.stringMatching(/chat template \(tokenizer\.chat_template\) cannot be rendered.*This GGUF was converted without its template.*pass a chatTemplate/), retryable: false });
    // Only the metadata was read: the weights after it never were.
    expect(result.read).toBeLessThan(result.size / 2);
  });

  it('one that uses Python’s `%` on strings, which the Jinja engine cannot run', { timeout: 60_000 }, async () => {
    const result = await fromHeader(`{{ '%s' % 'x' }}${CHATML}`);
    expect(result.error).toEqual({ reason: expect.stringMatching(/chat template \(tokenizer\.chat_template\) cannot be rendered.*Unknown operator "%".*pass a chatTemplate/), retryable: false });
    expect(result.read).toBeLessThan(result.size / 2);
  });

  it('the app’s chatTemplate is named when it is the one that fails, and one that renders loads', () => {
    const raising = "{{ raise_exception('no') }}";
    expect(prepare({ chatTemplate: raising }, raising).error).toEqual({ reason: expect.stringMatching(/^the chatTemplate given cannot be rendered: .*no; pass a chatTemplate that renders$/), retryable: false });
    expect(prepare({ chatTemplate: CHATML, family: 'hermes' }, CHATML)).toEqual({ loaded: true });
  });

  it('a template that refuses only some conversations loads (its refusals are the sends’ ChatTemplateErrors)', () => {
    const picky = `{% if messages | length > 2 %}{{ raise_exception('At most two messages') }}{% endif %}${CHATML}`;
    expect(prepare({}, picky)).toEqual({ loaded: true });
  });

  it('an unknown family the app names is its own error, not the template’s', () => {
    expect(prepare({ family: 'klingon' as never }, CHATML).error).toMatch(/InvalidOptionsError|unknown model family/);
  });
});
