// What a GGUF file says of itself before its weights: the metadata at its
// head (format: ggml-org/ggml docs/gguf.md). Read from a Blob, or over HTTP
// from the start of the file, as far as the metadata goes and no further, so
// a file tabagent cannot run is refused before its gigabytes are downloaded.
// Only the keys a load needs are kept; the tokenizer's arrays are skipped.

/** The facts a load needs, as the file states them (absent where it does not). */
export interface GgufHeader {
  architecture?: string;
  /** The window the model was trained on (`<arch>.context_length`). */
  contextLength?: number;
  blockCount?: number;
  headCount?: number;
  headCountKv?: number;
  embeddingLength?: number;
  keyLength?: number;
  valueLength?: number;
  chatTemplate?: string;
}

/** The file does not start with "GGUF": what it starts with, for the error. */
export class NotGgufError extends Error {
  constructor(readonly head: Uint8Array) {
    super('not a GGUF file');
  }
}

/** Reads bytes in order from somewhere, a chunk at a time. */
export interface ByteSource {
  /** The next bytes, or an empty array at the end. */
  next(): Promise<Uint8Array>;
  close(): Promise<void>;
}

export function blobSource(blob: Blob, chunk = 1 << 20): ByteSource {
  let at = 0;
  return {
    async next() {
      const part = new Uint8Array(await blob.slice(at, at + chunk).arrayBuffer());
      at += part.byteLength;
      return part;
    },
    close: async () => undefined,
  };
}

export function streamSource(stream: ReadableStream<Uint8Array>): ByteSource {
  const reader = stream.getReader();
  return {
    async next() {
      const { done, value } = await reader.read();
      return done ? new Uint8Array(0) : value;
    },
    // The rest of the body is not wanted: the connection goes.
    close: () => reader.cancel().catch(() => undefined),
  };
}

const TYPE_SIZES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;

/** The header's facts; NotGgufError when it is no GGUF, a RangeError when the source ends within the metadata. */
export async function readGgufHeader(source: ByteSource): Promise<GgufHeader> {
  const reader = new Reader(source);
  try {
    const magic = await reader.bytes(4);
    if (new TextDecoder().decode(magic) !== 'GGUF') throw new NotGgufError(magic);
    const version = await reader.u32();
    if (version < 2) throw new RangeError(`GGUF version ${version} is too old (2 or later)`);
    await reader.u64(); // tensor count
    const count = await reader.u64();
    const values = new Map<string, unknown>();
    for (let i = 0; i < count; i++) {
      const key = await reader.string();
      const type = await reader.u32();
      // The architecture's keys are wanted only once it is known; it comes first in files llama.cpp's tools write.
      if (type === ARRAY) await reader.skipArray();
      else if (wanted(key)) values.set(key, await reader.scalar(type));
      else await reader.skipScalar(type);
    }
    const arch = values.get('general.architecture');
    const of = (name: string) => {
      const value = typeof arch === 'string' ? values.get(`${arch}.${name}`) : undefined;
      return typeof value === 'number' ? value : undefined;
    };
    const template = values.get('tokenizer.chat_template');
    return {
      ...(typeof arch === 'string' ? { architecture: arch } : {}),
      contextLength: of('context_length'),
      blockCount: of('block_count'),
      headCount: of('attention.head_count'),
      headCountKv: of('attention.head_count_kv'),
      embeddingLength: of('embedding_length'),
      keyLength: of('attention.key_length'),
      valueLength: of('attention.value_length'),
      ...(typeof template === 'string' ? { chatTemplate: template } : {}),
    };
  } finally {
    await source.close();
  }
}

function wanted(key: string): boolean {
  return key === 'general.architecture' || key === 'tokenizer.chat_template' || /^[^.]+\.(context_length|block_count|embedding_length|attention\.(head_count|head_count_kv|key_length|value_length))$/.test(key);
}

/** Little-endian reads over a ByteSource, pulling chunks as they are needed. */
class Reader {
  #buffer = new Uint8Array(0);
  #at = 0;

  constructor(private readonly source: ByteSource) {}

  async #need(n: number): Promise<void> {
    while (this.#buffer.byteLength - this.#at < n) {
      const chunk = await this.source.next();
      if (chunk.byteLength === 0) throw new RangeError('the file ends within its metadata');
      const rest = this.#buffer.subarray(this.#at);
      const joined = new Uint8Array(rest.byteLength + chunk.byteLength);
      joined.set(rest);
      joined.set(chunk, rest.byteLength);
      this.#buffer = joined;
      this.#at = 0;
    }
  }

  async bytes(n: number): Promise<Uint8Array> {
    await this.#need(n);
    const out = this.#buffer.subarray(this.#at, this.#at + n);
    this.#at += n;
    return out;
  }

  async #view(n: number): Promise<DataView> {
    const bytes = await this.bytes(n);
    return new DataView(bytes.buffer, bytes.byteOffset, n);
  }

  async u32(): Promise<number> {
    return (await this.#view(4)).getUint32(0, true);
  }

  async u64(): Promise<number> {
    const value = (await this.#view(8)).getBigUint64(0, true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('a GGUF count or length is too large');
    return Number(value);
  }

  async string(): Promise<string> {
    return new TextDecoder().decode(await this.bytes(await this.u64()));
  }

  async skip(n: number): Promise<void> {
    // Large skips go chunk by chunk, so a long array is never held whole.
    while (n > 0) {
      const step = Math.min(n, 1 << 20);
      await this.bytes(step);
      n -= step;
    }
  }

  async scalar(type: number): Promise<unknown> {
    if (type === STRING) return this.string();
    const size = TYPE_SIZES[type];
    if (size === undefined) throw new RangeError(`unknown GGUF value type ${type}`);
    const view = await this.#view(size);
    switch (type) {
      case 0: return view.getUint8(0);
      case 1: return view.getInt8(0);
      case 2: return view.getUint16(0, true);
      case 3: return view.getInt16(0, true);
      case 4: return view.getUint32(0, true);
      case 5: return view.getInt32(0, true);
      case 6: return view.getFloat32(0, true);
      case 7: return view.getUint8(0) !== 0;
      case 10: return Number(view.getBigUint64(0, true));
      case 11: return Number(view.getBigInt64(0, true));
      default: return view.getFloat64(0, true);
    }
  }

  async skipScalar(type: number): Promise<void> {
    if (type === STRING) return this.skip(await this.u64());
    const size = TYPE_SIZES[type];
    if (size === undefined) throw new RangeError(`unknown GGUF value type ${type}`);
    return this.skip(size);
  }

  async skipArray(): Promise<void> {
    const type = await this.u32();
    const count = await this.u64();
    if (type === STRING) {
      for (let i = 0; i < count; i++) await this.skip(await this.u64());
      return;
    }
    if (type === ARRAY) {
      for (let i = 0; i < count; i++) await this.skipArray();
      return;
    }
    const size = TYPE_SIZES[type];
    if (size === undefined) throw new RangeError(`unknown GGUF value type ${type}`);
    await this.skip(size * count);
  }
}
