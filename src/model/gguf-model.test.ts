// How an app names a GGUF model, and what the worker is asked to load.
import { describe, expect, it } from 'vitest';
import { isInvalidOptionsError } from '../errors/index.js';
import { ggufSpec } from './gguf-model.js';
import { namesGguf } from './gguf-name.js';
import { modelSpec } from './model-session.js';

const QWEN3 = 'https://huggingface.co/unsloth/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf';

describe('naming a GGUF model', () => {
  it('a curated id carries its URL, family and thinking', () => {
    expect(ggufSpec('Qwen3-0.6B-Q8_0-GGUF')).toEqual({ kind: 'gguf', modelId: 'Qwen3-0.6B-Q8_0-GGUF', url: QWEN3, family: 'qwen3', grammar: undefined, thinks: true });
  });

  it('a curated id with options of the app’s own', () => {
    expect(ggufSpec({ gguf: 'Qwen3-0.6B-Q8_0-GGUF', contextSize: 8192 })).toMatchObject({ modelId: 'Qwen3-0.6B-Q8_0-GGUF', url: QWEN3, family: 'qwen3', contextSize: 8192 });
  });

  it('a URL or a file is called by its file name, without .gguf', () => {
    expect(ggufSpec({ gguf: 'https://example.com/models/My%20Model.Q4_K_M.gguf' })).toMatchObject({ modelId: 'My Model.Q4_K_M', url: 'https://example.com/models/My%20Model.Q4_K_M.gguf' });
    const file = new File([new Uint8Array([1])], 'local.gguf');
    expect(ggufSpec({ gguf: file, id: 'mine' })).toMatchObject({ modelId: 'mine', blob: file });
    expect(ggufSpec({ gguf: file })).toMatchObject({ modelId: 'local' });
  });

  it('refuses what cannot be loaded, with the option named', () => {
    const refused = (model: unknown) => {
      try {
        ggufSpec(model);
      } catch (error) {
        return isInvalidOptionsError(error) ? error.option : String(error);
      }
      return 'accepted';
    };
    expect(refused({ gguf: 'ftp://example.com/x.gguf' })).toBe('gguf');
    expect(refused({ gguf: new Blob([]) })).toBe('gguf');
    expect(refused({ gguf: 'https://example.com/x.gguf', contextSize: 0 })).toBe('contextSize');
    expect(refused({ gguf: 'https://example.com/x.gguf', threads: 1.5 })).toBe('threads');
    // llama.cpp's n_ctx is a C int: 2 ** 32 + 512 ran as 512 while the chat counted on billions.
    expect(refused({ gguf: 'https://example.com/x.gguf', contextSize: 2 ** 32 + 512 })).toBe('contextSize');
    expect(refused({ gguf: 'https://example.com/x.gguf', contextSize: 2 ** 31 })).toBe('contextSize');
    expect(refused({ gguf: 'https://example.com/x.gguf', contextSize: 2 ** 31 - 1 })).toBe('accepted');
    // A curated id's options are checked as well.
    expect(refused({ gguf: 'Qwen3-0.6B-Q8_0-GGUF', contextSize: 0 })).toBe('contextSize');
    expect(refused({ gguf: 'Qwen3-0.6B-Q8_0-GGUF', contextSize: 2 ** 32 })).toBe('contextSize');
    expect(refused('Not-A-Model')).toBe('model');
  });

  it('a WebLLM model keeps its own spec, with the GGUF fallback beside it', async () => {
    expect(namesGguf('Qwen2.5-1.5B-Instruct-q4f16_1-MLC')).toBe(false);
    expect(await modelSpec({ model: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', fallback: 'Qwen3-0.6B-Q8_0-GGUF' })).toMatchObject({ kind: 'webllm', modelId: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', fallback: { kind: 'gguf', modelId: 'Qwen3-0.6B-Q8_0-GGUF', url: QWEN3 } });
  });
});

describe('a GGUF named by a string', () => {
  it('an id ending in -GGUF that is not curated is refused with the reason, before any worker starts', async () => {
    expect(namesGguf('Qwen9-7B-Q4_K_M-GGUF')).toBe(true);
    const error = await modelSpec({ model: 'Qwen9-7B-Q4_K_M-GGUF' }).catch((e: unknown) => e);
    expect(isInvalidOptionsError(error) && error.message).toMatch(/"Qwen9-7B-Q4_K_M-GGUF" is no curated GGUF id/);
  });
});
